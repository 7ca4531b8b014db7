/** CREATE / DROP (TABLE, INDEX, DATABASE) and TRUNCATE, token-level. */
import type { Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { keyColumns, parseCreateTable } from './ddl-create-table.js';
import { notSupported } from './parse-error.js';

export function parseCreate(c: Cursor): Statement {
  c.expectWord('CREATE');
  if (c.acceptWord('TEMPORARY')) throw notSupported('CREATE TEMPORARY TABLE');
  if (c.acceptWord('TABLE')) return parseCreateTable(c);
  if (c.acceptWord('DATABASE', 'SCHEMA')) return createDatabase(c);
  const unique = c.acceptWord('UNIQUE') !== undefined;
  if (c.acceptWord('INDEX')) return createIndex(c, unique);
  if (c.isWord('FULLTEXT', 'SPATIAL')) throw notSupported(`${c.next().upper} index`);
  throw notSupported(`CREATE ${c.peek()?.upper ?? ''}`.trim());
}

function createDatabase(c: Cursor): Statement {
  const ifNotExists = c.acceptWords('IF', 'NOT', 'EXISTS');
  const name = c.ident();
  let charset: string | undefined;
  let collation: string | undefined;
  while (!c.atEnd()) {
    c.acceptWord('DEFAULT');
    if (c.acceptWords('CHARACTER', 'SET') || c.acceptWord('CHARSET')) {
      c.acceptOp('=');
      charset = c.name().toLowerCase();
    } else if (c.acceptWord('COLLATE')) {
      c.acceptOp('=');
      collation = c.name().toLowerCase();
    } else if (c.acceptWord('ENCRYPTION')) {
      c.acceptOp('=');
      c.string();
    } else throw c.error();
  }
  return { kind: 'createDatabase', name, ifNotExists, ...(charset ? { charset } : {}), ...(collation ? { collation } : {}) };
}

function createIndex(c: Cursor, unique: boolean): Statement {
  const ifNotExists = c.acceptWords('IF', 'NOT', 'EXISTS');
  const name = c.ident();
  if (c.acceptWord('USING')) c.expectWord('BTREE', 'HASH');
  c.expectWord('ON');
  const table = c.tableName();
  const columns = keyColumns(c);
  skipTrailingIndexOptions(c);
  return { kind: 'createIndex', table, index: { name, columns, primary: false, unique }, ifNotExists };
}

function skipTrailingIndexOptions(c: Cursor): void {
  while (!c.atEnd()) {
    if (c.acceptWord('USING')) c.expectWord('BTREE', 'HASH');
    else if (c.acceptWord('COMMENT')) c.string();
    else if (c.acceptWord('VISIBLE', 'INVISIBLE')) continue;
    else if (c.acceptWord('ALGORITHM', 'LOCK')) {
      c.acceptOp('=');
      c.next();
    } else throw c.error();
  }
}

export function parseDrop(c: Cursor): Statement {
  c.expectWord('DROP');
  if (c.acceptWord('DATABASE', 'SCHEMA')) {
    const ifExists = c.acceptWords('IF', 'EXISTS');
    const name = c.ident();
    c.expectEnd();
    return { kind: 'dropDatabase', name, ifExists };
  }
  if (c.acceptWord('INDEX')) {
    const ifExists = c.acceptWords('IF', 'EXISTS');
    const name = c.ident();
    c.expectWord('ON');
    const table = c.tableName();
    skipTrailingIndexOptions(c);
    return { kind: 'dropIndex', table, name, ifExists };
  }
  c.acceptWord('TEMPORARY');
  if (c.acceptWord('TABLE', 'TABLES') === undefined) throw notSupported(`DROP ${c.peek()?.upper ?? ''}`.trim());
  const ifExists = c.acceptWords('IF', 'EXISTS');
  const tables = [c.tableName()];
  while (c.acceptOp(',')) tables.push(c.tableName());
  c.acceptWord('RESTRICT', 'CASCADE');
  c.expectEnd();
  return { kind: 'dropTable', tables, ifExists };
}

export function parseTruncate(c: Cursor): Statement {
  c.expectWord('TRUNCATE');
  c.acceptWord('TABLE');
  const table = c.tableName();
  c.expectEnd();
  return { kind: 'truncate', table };
}
