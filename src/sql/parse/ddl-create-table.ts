/** CREATE TABLE by a token-level parser (node-sql-parser lacks SERIAL, BOOL, REAL, ...). */
import { isStringType, makeType, type ColumnType } from '../../types/index.js';
import type { ColumnDef, CreateTableStmt, DefaultDef, Expr, ForeignKeyDef, IndexColumn, IndexDef } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseColumnType } from './ddl-types.js';
import { negate } from './fast-insert.js';
import { isLiteralToken } from './lexer.js';
import { parseExprTokens } from './lib-statement.js';
import { notSupported } from './parse-error.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** After `CREATE [TEMPORARY] TABLE`. */
export function parseCreateTable(c: Cursor): CreateTableStmt {
  const ifNotExists = c.acceptWords('IF', 'NOT', 'EXISTS');
  const table = c.tableName();
  if (c.isWord('LIKE') || c.isWord('AS', 'SELECT')) throw notSupported(`CREATE TABLE ... ${c.peek()?.upper ?? ''}`);
  const columns: ColumnDef[] = [];
  const indexes: IndexDef[] = [];
  const foreignKeys: ForeignKeyDef[] = [];
  c.expectOp('(');
  do element(c, columns, indexes, foreignKeys);
  while (c.acceptOp(','));
  c.expectOp(')');
  const options = tableOptions(c);
  if (c.isWord('AS', 'SELECT', 'IGNORE', 'REPLACE')) throw notSupported('CREATE TABLE ... SELECT');
  if (c.isWord('PARTITION')) throw notSupported('PARTITION BY');
  c.expectEnd();
  return { kind: 'createTable', table, ifNotExists, columns, indexes, foreignKeys, options };
}

function element(c: Cursor, columns: ColumnDef[], indexes: IndexDef[], fks: ForeignKeyDef[]): void {
  let constraint: string | undefined;
  if (c.acceptWord('CONSTRAINT')) {
    if (!c.isWord('PRIMARY', 'UNIQUE', 'FOREIGN', 'CHECK')) constraint = c.ident();
  }
  if (c.acceptWords('PRIMARY', 'KEY')) {
    skipIndexType(c);
    indexes.push({ name: 'PRIMARY', columns: keyColumns(c), primary: true, unique: true });
  } else if (c.acceptWord('UNIQUE')) {
    c.acceptWord('KEY', 'INDEX');
    const name = indexName(c) ?? constraint;
    indexes.push({ ...(name ? { name } : {}), columns: keyColumns(c), primary: false, unique: true });
  } else if (c.acceptWord('KEY', 'INDEX')) {
    const name = indexName(c);
    indexes.push({ ...(name ? { name } : {}), columns: keyColumns(c), primary: false, unique: false });
  } else if (c.acceptWords('FOREIGN', 'KEY')) {
    fks.push(foreignKey(c, indexName(c) ?? constraint));
  } else if (c.acceptWord('CHECK')) {
    skipParens(c);
    c.acceptWord('ENFORCED');
  } else if (c.isWord('FULLTEXT', 'SPATIAL')) {
    throw notSupported(`${c.next().upper} index`);
  } else {
    columns.push(columnDef(c));
  }
  skipIndexOptions(c);
}

function indexName(c: Cursor): string | undefined {
  if (c.isOp('(') || c.isWord('USING')) return undefined;
  const name = c.ident();
  skipIndexType(c);
  return name;
}

function skipIndexType(c: Cursor): void {
  if (c.acceptWord('USING')) c.expectWord('BTREE', 'HASH');
}

function skipIndexOptions(c: Cursor): void {
  for (;;) {
    if (c.acceptWord('USING')) c.expectWord('BTREE', 'HASH');
    else if (c.acceptWord('COMMENT')) c.string();
    else if (c.acceptWord('VISIBLE', 'INVISIBLE') === undefined) return;
  }
}

export function keyColumns(c: Cursor): IndexColumn[] {
  c.expectOp('(');
  const out: IndexColumn[] = [];
  do {
    if (c.isOp('(')) throw notSupported('functional key parts');
    const name = c.ident();
    const length = c.acceptOp('(') ? c.int() : undefined;
    if (length !== undefined) c.expectOp(')');
    const desc = c.acceptWord('ASC', 'DESC') === 'DESC';
    out.push({ name, desc, ...(length !== undefined ? { length } : {}) });
  } while (c.acceptOp(','));
  c.expectOp(')');
  return out;
}

function foreignKey(c: Cursor, name: string | undefined): ForeignKeyDef {
  const columns = keyColumns(c).map((k) => k.name);
  c.expectWord('REFERENCES');
  const refTable = c.tableName();
  const refColumns = keyColumns(c).map((k) => k.name);
  let onDelete = 'NO ACTION';
  let onUpdate = 'NO ACTION';
  if (c.acceptWord('MATCH')) c.expectWord('FULL', 'PARTIAL', 'SIMPLE');
  while (c.acceptWord('ON')) {
    const which = c.expectWord('DELETE', 'UPDATE');
    const action = refAction(c);
    if (which === 'DELETE') onDelete = action;
    else onUpdate = action;
  }
  return { ...(name ? { name } : {}), columns, refTable, refColumns, onDelete, onUpdate };
}

function refAction(c: Cursor): string {
  const w = c.expectWord('RESTRICT', 'CASCADE', 'SET', 'NO');
  if (w === 'SET') return `SET ${c.expectWord('NULL', 'DEFAULT')}`;
  if (w === 'NO') return `NO ${c.expectWord('ACTION')}`;
  return w;
}

function skipParens(c: Cursor): void {
  c.expectOp('(');
  let depth = 1;
  while (depth > 0) {
    const t = c.next();
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
  }
}

function columnDef(c: Cursor): ColumnDef {
  const name = c.ident();
  const parsed = parseColumnType(c);
  let type: ColumnType = parsed.type;
  const col: Mutable<ColumnDef> = {
    name, type, notNull: parsed.serial, default: { kind: 'none' }, autoIncrement: parsed.serial,
    primaryKey: false, unique: parsed.serial, onUpdateNow: false, comment: '',
  };
  for (;;) {
    if (c.acceptWords('NOT', 'NULL')) col.notNull = true;
    else if (c.acceptWord('NULL')) col.notNull = false;
    else if (c.acceptWord('DEFAULT')) col.default = defaultValue(c);
    else if (c.acceptWords('ON', 'UPDATE')) col.onUpdateNow = nowFunction(c) !== undefined || fail(c);
    else if (c.acceptWord('AUTO_INCREMENT')) col.autoIncrement = true;
    else if (c.acceptWords('PRIMARY', 'KEY') || c.acceptWord('KEY')) col.primaryKey = true;
    else if (c.acceptWord('UNIQUE')) col.unique = c.acceptWord('KEY') !== undefined || true;
    else if (c.acceptWord('COMMENT')) col.comment = c.string();
    else if (c.acceptWords('CHARACTER', 'SET') || c.acceptWord('CHARSET')) type = withCharset(type, c.name());
    else if (c.acceptWord('COLLATE')) type = withCollation(type, c.name());
    else if (c.acceptWord('BINARY')) type = withCollation(type, 'utf8mb4_bin');
    else if (c.acceptWord('CHECK')) skipParens(c);
    else if (c.acceptWord('VISIBLE', 'INVISIBLE')) continue;
    else if (c.acceptWord('COLUMN_FORMAT', 'STORAGE')) c.next();
    else if (c.isWord('GENERATED', 'AS')) throw notSupported('generated columns');
    else if (c.isWord('REFERENCES')) throw notSupported('inline REFERENCES');
    else break;
  }
  col.type = type;
  return col;
}

function fail(c: Cursor): never {
  throw c.error();
}

function withCharset(t: ColumnType, cs: string): ColumnType {
  if (!isStringType(t)) return t;
  const lower = cs.toLowerCase();
  if (lower === 'binary') return makeType(t.kind === 'char' ? 'binary' : t.kind === 'varchar' ? 'varbinary' : 'blob', { length: t.length, lob: t.lob });
  return t;
}

function withCollation(t: ColumnType, collation: string): ColumnType {
  return isStringType(t) ? { ...t, collation: collation.toLowerCase() } : t;
}

/** CURRENT_TIMESTAMP[(n)] / NOW([n]) / LOCALTIME[STAMP][(n)]: returns fsp, or undefined. */
function nowFunction(c: Cursor): number | undefined {
  const w = c.acceptWord('CURRENT_TIMESTAMP', 'NOW', 'LOCALTIME', 'LOCALTIMESTAMP');
  if (w === undefined) return undefined;
  let fsp = 0;
  if (c.acceptOp('(')) {
    if (!c.isOp(')')) fsp = c.int();
    c.expectOp(')');
  } else if (w === 'NOW') throw c.error();
  return fsp;
}

function defaultValue(c: Cursor): DefaultDef {
  const fsp = nowFunction(c);
  if (fsp !== undefined) return { kind: 'now', fsp };
  if (c.isOp('(')) {
    const start = c.pos;
    skipParens(c);
    return { kind: 'expr', expr: parseExprTokens(c.sql, c.tokens, start, c.pos) };
  }
  return { kind: 'expr', expr: simpleLiteral(c) };
}

function simpleLiteral(c: Cursor): Expr {
  if (c.acceptOp('-')) return negate(simpleLiteral(c));
  if (c.acceptOp('+')) return simpleLiteral(c);
  const t = c.next();
  if (isLiteralToken(t)) return { kind: 'literal', value: t.value };
  if (t.type === 'word' && t.upper === 'NULL') return { kind: 'literal', value: null };
  if (t.type === 'word' && (t.upper === 'TRUE' || t.upper === 'FALSE')) return { kind: 'literal', value: t.upper === 'TRUE' ? 1n : 0n };
  if (t.type === 'word' && t.text.startsWith('_') && c.peek()?.type === 'string') return simpleLiteral(c);
  c.pos--;
  throw c.error();
}

const OPTION_KEYS: Readonly<Record<string, string>> = {
  CHARSET: 'DEFAULT CHARSET', 'CHARACTER SET': 'DEFAULT CHARSET', COLLATE: 'COLLATE',
};

/** `ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ...`: keys upper-cased, charset forms as `DEFAULT CHARSET`. */
function tableOptions(c: Cursor): Record<string, string> {
  const out: Record<string, string> = {};
  while (!c.atEnd() && !c.isWord('AS', 'SELECT', 'PARTITION', 'IGNORE', 'REPLACE')) {
    c.acceptWord('DEFAULT');
    let key = c.expectWord(
      'ENGINE', 'CHARSET', 'CHARACTER', 'COLLATE', 'AUTO_INCREMENT', 'COMMENT', 'ROW_FORMAT', 'KEY_BLOCK_SIZE',
      'STATS_PERSISTENT', 'STATS_AUTO_RECALC', 'STATS_SAMPLE_PAGES', 'PACK_KEYS', 'CHECKSUM', 'DELAY_KEY_WRITE',
      'AVG_ROW_LENGTH', 'MAX_ROWS', 'MIN_ROWS', 'COMPRESSION', 'ENCRYPTION', 'INSERT_METHOD', 'TABLESPACE',
    );
    if (key === 'CHARACTER') key = c.expectWord('SET') && 'CHARACTER SET';
    c.acceptOp('=');
    const t = c.next();
    out[OPTION_KEYS[key] ?? key] = t.type === 'string' || t.type === 'qident' ? String(t.value) : t.text;
    c.acceptOp(',');
  }
  return out;
}
