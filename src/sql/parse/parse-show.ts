/** SHOW, DESCRIBE/DESC and EXPLAIN <table>, token-level. */
import type { ShowStmt, ShowTarget, TableName } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseExprTokens } from './lib-statement.js';
import { notSupported } from './parse-error.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function parseShow(c: Cursor): ShowStmt {
  c.expectWord('SHOW');
  const full = c.acceptWord('FULL') !== undefined;
  const scope = c.acceptWord('GLOBAL', 'SESSION', 'LOCAL');
  const s: Mutable<ShowStmt> = { kind: 'show', target: target(c), full, global: scope === 'GLOBAL' };
  switch (s.target) {
    case 'tables':
    case 'tableStatus':
    case 'triggers':
    case 'events':
    case 'openTables':
      if (c.acceptWord('FROM', 'IN')) s.db = c.ident();
      break;
    case 'columns':
    case 'index':
      c.expectWord('FROM', 'IN');
      s.table = c.tableName();
      if (c.acceptWord('FROM', 'IN')) s.table = { db: c.ident(), name: s.table.name };
      break;
    case 'createTable':
    case 'createView':
      s.table = c.tableName();
      break;
    case 'createDatabase':
      c.acceptWords('IF', 'NOT', 'EXISTS');
      s.db = c.ident();
      break;
    case 'warnings':
    case 'errors':
      skipLimit(c);
      break;
    default:
      break;
  }
  filter(c, s);
  c.expectEnd();
  return s;
}

function target(c: Cursor): ShowTarget {
  const w = c.next();
  switch (w.upper) {
    case 'DATABASES':
    case 'SCHEMAS':
      return 'databases';
    case 'TABLES':
      return 'tables';
    case 'COLUMNS':
    case 'FIELDS':
      return 'columns';
    case 'INDEX':
    case 'INDEXES':
    case 'KEYS':
      return 'index';
    case 'CREATE':
      if (c.acceptWord('TABLE')) return 'createTable';
      if (c.acceptWord('VIEW')) return 'createView';
      if (c.acceptWord('DATABASE', 'SCHEMA')) return 'createDatabase';
      throw notSupported(`SHOW CREATE ${c.peek()?.upper ?? ''}`.trim());
    case 'VARIABLES':
      return 'variables';
    case 'STATUS':
      return 'status';
    case 'WARNINGS':
      return 'warnings';
    case 'ERRORS':
      return 'errors';
    case 'ENGINES':
      return 'engines';
    case 'STORAGE':
      c.expectWord('ENGINES');
      return 'engines';
    case 'COLLATION':
      return 'collation';
    case 'CHARSET':
      return 'charset';
    case 'CHARACTER':
      c.expectWord('SET');
      return 'charset';
    case 'TABLE':
      c.expectWord('STATUS');
      return 'tableStatus';
    case 'PROCESSLIST':
      return 'processlist';
    case 'GRANTS':
      if (c.acceptWord('FOR')) while (!c.atEnd()) c.next();
      return 'grants';
    case 'PLUGINS':
      return 'plugins';
    case 'TRIGGERS':
      return 'triggers';
    case 'EVENTS':
      return 'events';
    case 'PROCEDURE':
      c.expectWord('STATUS');
      return 'procedureStatus';
    case 'FUNCTION':
      c.expectWord('STATUS');
      return 'functionStatus';
    case 'OPEN':
      c.expectWord('TABLES');
      return 'openTables';
    case 'MASTER':
      c.expectWord('STATUS');
      return 'masterStatus';
    case 'BINARY':
      c.expectWord('LOG');
      c.expectWord('STATUS');
      return 'masterStatus';
    case 'SLAVE':
    case 'REPLICA':
      c.expectWord('STATUS');
      return 'replicaStatus';
    default:
      c.pos--;
      throw notSupported(`SHOW ${w.upper}`);
  }
}

function skipLimit(c: Cursor): void {
  if (!c.acceptWord('LIMIT')) return;
  c.int();
  if (c.acceptOp(',')) c.int();
}

function filter(c: Cursor, s: Mutable<ShowStmt>): void {
  if (c.acceptWord('LIKE')) s.like = c.string();
  else if (c.acceptWord('WHERE')) {
    const start = c.pos;
    c.pos = c.tokens.length;
    s.where = parseExprTokens(c.sql, c.tokens, start, c.pos);
  }
}

/** DESCRIBE / DESC / EXPLAIN <table> [column] = SHOW COLUMNS FROM table [LIKE column]. */
export function describeTable(c: Cursor): ShowStmt {
  const table: TableName = c.tableName();
  const s: Mutable<ShowStmt> = { kind: 'show', target: 'columns', full: false, global: false, table };
  if (!c.atEnd()) s.like = c.name();
  c.expectEnd();
  return s;
}
