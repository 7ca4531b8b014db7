/** CREATE TABLE by a token-level parser (node-sql-parser lacks SERIAL, BOOL, REAL, ...). */
import { SqlError } from '../../errors/index.js';
import { DEFAULT_COLLATION, charsetDefaultCollation, findCollation, isStringType, makeType, type ColumnType } from '../../types/index.js';
import type { CheckDef, ColumnDef, CreateTableStmt, DefaultDef, Expr, ForeignKeyDef, IndexColumn, IndexDef } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseColumnType } from './ddl-types.js';
import { negate } from './fast-insert.js';
import { isLiteralToken } from './lexer.js';
import { parseExprTokens, parseWithLib } from './lib-statement.js';
import { notSupported } from './parse-error.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** FOREIGN KEY / CHECK clauses met inside column definitions (inline REFERENCES, column CHECK). */
export interface Constraints {
  readonly foreignKeys: ForeignKeyDef[];
  readonly checks: CheckDef[];
}

/** After `CREATE [TEMPORARY] TABLE`. */
export function parseCreateTable(c: Cursor): CreateTableStmt {
  const ifNotExists = c.acceptWords('IF', 'NOT', 'EXISTS');
  const table = c.tableName();
  const like = parseLike(c);
  if (like !== undefined) {
    return { kind: 'createTable', table, ifNotExists, columns: [], indexes: [], foreignKeys: [], options: {}, like };
  }
  const columns: ColumnDef[] = [];
  const indexes: IndexDef[] = [];
  const cons: Constraints = { foreignKeys: [], checks: [] };
  if (c.acceptOp('(')) {
    if (c.isWord('LIKE')) throw notSupported('CREATE TABLE (LIKE ...)');
    do element(c, columns, indexes, cons);
    while (c.acceptOp(','));
    c.expectOp(')');
  } else if (!isSelectStart(c)) {
    c.expectOp('(');
  }
  const options = tableOptions(c);
  if (c.isWord('PARTITION')) throw notSupported('PARTITION BY');
  const base: CreateTableStmt = { kind: 'createTable', table, ifNotExists, columns, indexes, foreignKeys: cons.foreignKeys, options, checks: cons.checks };
  if (c.atEnd()) return base;
  const mode = c.acceptWord('IGNORE', 'REPLACE');
  c.acceptWord('AS');
  if (!isSelectStart(c)) throw c.error();
  const select = parseWithLib(c.sql, c.tokens.slice(c.pos), false).stmt;
  if (select.kind !== 'select') throw c.error();
  return { ...base, select, ...(mode !== undefined ? { selectMode: mode === 'IGNORE' ? 'ignore' as const : 'replace' as const } : {}) };
}

function isSelectStart(c: Cursor): boolean {
  return c.isWord('SELECT', 'WITH', 'AS', 'IGNORE', 'REPLACE') || c.isOp('(');
}

function parseLike(c: Cursor): CreateTableStmt['table'] | undefined {
  if (!c.acceptWord('LIKE')) return undefined;
  const src = c.tableName();
  c.expectEnd();
  return src;
}

function element(c: Cursor, columns: ColumnDef[], indexes: IndexDef[], cons: Constraints): void {
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
    cons.foreignKeys.push(foreignKey(c, constraint, indexName(c)));
  } else if (c.acceptWord('CHECK')) {
    cons.checks.push(checkClause(c, constraint));
  } else if (c.isWord('FULLTEXT', 'SPATIAL')) {
    throw notSupported(`${c.next().upper} index`);
  } else {
    columns.push(columnDef(c, cons));
  }
  skipIndexOptions(c);
}

/** Column-level `CONSTRAINT [name] CHECK (...)` after CONSTRAINT. */
function namedCheck(c: Cursor): CheckDef {
  const name = c.isWord('CHECK') ? undefined : c.ident();
  c.expectWord('CHECK');
  return checkClause(c, name);
}

/** After CHECK: `(expr) [[NOT] ENFORCED]`. */
export function checkClause(c: Cursor, name: string | undefined): CheckDef {
  c.expectOp('(');
  const start = c.pos;
  c.pos--;
  skipParens(c);
  if (c.pos - 1 <= start) throw c.error();
  parseExprTokens(c.sql, c.tokens, start, c.pos - 1);
  const expr = c.sql.slice((c.tokens[start] as { start: number }).start, (c.tokens[c.pos - 2] as { end: number }).end);
  const enforced = !c.acceptWords('NOT', 'ENFORCED');
  if (enforced) c.acceptWord('ENFORCED');
  return { ...(name ? { name } : {}), expr, enforced };
}

export function indexName(c: Cursor): string | undefined {
  if (c.isOp('(') || c.isWord('USING')) return undefined;
  const name = c.ident();
  skipIndexType(c);
  return name;
}

function skipIndexType(c: Cursor): void {
  if (c.acceptWord('USING')) c.expectWord('BTREE', 'HASH');
}

export function skipIndexOptions(c: Cursor): void {
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

/** After FOREIGN KEY [index_name]: `(cols) REFERENCES ...`. */
export function foreignKey(c: Cursor, name: string | undefined, indexName?: string): ForeignKeyDef {
  const columns = keyColumns(c).map((k) => k.name);
  return references(c, columns, name, indexName);
}

function references(c: Cursor, columns: string[], name: string | undefined, indexName?: string): ForeignKeyDef {
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
  return { ...(name ? { name } : {}), ...(indexName ? { indexName } : {}), columns, refTable, refColumns, onDelete, onUpdate };
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

/** A column definition; inline REFERENCES / CHECK clauses go to `cons`. */
export function columnDef(c: Cursor, cons: Constraints): ColumnDef {
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
    else if (c.acceptWord('CHECK')) cons.checks.push(checkClause(c, undefined));
    else if (c.acceptWord('CONSTRAINT')) cons.checks.push(namedCheck(c));
    else if (c.acceptWord('VISIBLE', 'INVISIBLE')) continue;
    else if (c.acceptWord('COLUMN_FORMAT', 'STORAGE')) c.next();
    else if (c.isWord('GENERATED', 'AS')) throw notSupported('generated columns');
    else if (c.isWord('REFERENCES')) cons.foreignKeys.push(references(c, [name], undefined));
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
  const def = charsetDefaultCollation(lower);
  return def === undefined || def === DEFAULT_COLLATION ? t : { ...t, collation: def };
}

/** `COLLATE name` on a column: unknown names are 1273, `utf8_*` is `utf8mb3_*`. */
function withCollation(t: ColumnType, collation: string): ColumnType {
  const c = findCollation(collation);
  if (c === undefined) throw SqlError.of('ER_UNKNOWN_COLLATION', collation);
  return isStringType(t) ? { ...t, collation: c.name } : t;
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

export function defaultValue(c: Cursor): DefaultDef {
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
export function tableOptions(c: Cursor, alter = false): Record<string, string> {
  const out: Record<string, string> = {};
  while (!c.atEnd() && !c.isWord('AS', 'SELECT', 'PARTITION', 'IGNORE', 'REPLACE')) {
    if (alter && (c.isOp(',') || !c.isWord('DEFAULT', ...OPTION_WORDS))) return out;
    c.acceptWord('DEFAULT');
    let key = c.expectWord(...OPTION_WORDS);
    if (key === 'CHARACTER') key = c.expectWord('SET') && 'CHARACTER SET';
    c.acceptOp('=');
    const t = c.next();
    out[OPTION_KEYS[key] ?? key] = t.type === 'string' || t.type === 'qident' ? String(t.value) : t.text;
    if (!alter) c.acceptOp(',');
  }
  return out;
}

const OPTION_WORDS = [
  'ENGINE', 'CHARSET', 'CHARACTER', 'COLLATE', 'AUTO_INCREMENT', 'COMMENT', 'ROW_FORMAT', 'KEY_BLOCK_SIZE',
  'STATS_PERSISTENT', 'STATS_AUTO_RECALC', 'STATS_SAMPLE_PAGES', 'PACK_KEYS', 'CHECKSUM', 'DELAY_KEY_WRITE',
  'AVG_ROW_LENGTH', 'MAX_ROWS', 'MIN_ROWS', 'COMPRESSION', 'ENCRYPTION', 'INSERT_METHOD', 'TABLESPACE',
];
