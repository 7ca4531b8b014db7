/**
 * CREATE TABLE / CREATE INDEX AST -> catalog specs. Column defaults are evaluated once, cast
 * to the column type and kept as the text MySQL shows (`'0'`, `''`, `'2.50'`); an invalid
 * default is 1067 whatever the sql_mode.
 */
import type { CheckInfo, ColumnDefault, ColumnSpec, ForeignKeySpec, IndexSpec, TableSpec } from '../../catalog/index.js';
import { SqlError, isSqlError } from '../../errors/index.js';
import { findCollation, isBinaryType, isDecimal, type ColumnType, type DateTime, type Value } from '../../types/index.js';
import { utf8Decode } from '../../util/index.js';
import { coerceToColumn, compileExpr, valueToString, type EvalContext, type Scope } from '../expr/index.js';
import { exprColumns, parseExpression, type CheckDef, type ColumnDef, type CreateTableStmt, type DefaultDef, type ForeignKeyDef, type IndexDef } from '../parse/index.js';

const EMPTY_SCOPE: Scope = { resolve: () => undefined };
const NO_DEFAULT_KINDS: ReadonlySet<string> = new Set(['text', 'blob', 'json']);

export function tableSpecFromAst(stmt: CreateTableStmt, ctx: EvalContext): TableSpec {
  const pkColumns = new Set<string>();
  for (const idx of stmt.indexes) if (idx.primary) for (const c of idx.columns) pkColumns.add(c.name.toLowerCase());
  const columns = stmt.columns.map((c) => columnSpecFromAst(c, pkColumns.has(c.name.toLowerCase()), ctx));
  const opts = tableOptions(stmt.options);
  return {
    name: stmt.table.name,
    columns,
    indexes: stmt.indexes.map(indexSpecFromAst),
    foreignKeys: stmt.foreignKeys.map(foreignKeySpecFromAst),
    checks: (stmt.checks ?? []).map(checkInfoFromAst),
    ...opts,
  };
}

export function foreignKeySpecFromAst(fk: ForeignKeyDef): ForeignKeySpec {
  return {
    name: fk.name ?? '',
    columns: [...fk.columns],
    refDb: fk.refTable.db ?? '',
    refTable: fk.refTable.name,
    refColumns: [...fk.refColumns],
    onDelete: fk.onDelete,
    onUpdate: fk.onUpdate,
    ...(fk.indexName !== undefined ? { indexName: fk.indexName } : {}),
  };
}

/** A CHECK clause: its text, re-parsed to find the columns it reads. */
export function checkInfoFromAst(check: CheckDef): CheckInfo {
  return { name: check.name ?? '', expr: check.expr, enforced: check.enforced, columns: exprColumns(parseExpression(check.expr)) };
}

/** ALTER COLUMN c SET DEFAULT x for a column of `type`. */
export function defaultFromAst(column: Pick<ColumnDef, 'name' | 'type' | 'notNull'>, def: DefaultDef, ctx: EvalContext): ColumnDefault {
  return columnDefault({ ...column, default: def, autoIncrement: false, primaryKey: false, unique: false, onUpdateNow: false, comment: '' }, ctx);
}

export function columnSpecFromAst(c: ColumnDef, inPrimaryKey: boolean, ctx: EvalContext): ColumnSpec {
  return {
    name: c.name,
    type: c.type,
    notNull: c.notNull || c.primaryKey || inPrimaryKey,
    default: columnDefault(c, ctx),
    autoIncrement: c.autoIncrement,
    onUpdateNow: c.onUpdateNow,
    comment: c.comment,
    primaryKey: c.primaryKey,
    unique: c.unique,
  };
}

export function indexSpecFromAst(idx: IndexDef): IndexSpec {
  const columns = idx.columns.map((c) => (c.length === undefined ? { name: c.name } : { name: c.name, length: c.length }));
  const base = { columns, unique: idx.unique || idx.primary, primary: idx.primary };
  return idx.name === undefined ? base : { ...base, name: idx.name };
}

function columnDefault(c: ColumnDef, ctx: EvalContext): ColumnDefault {
  const d = c.default;
  switch (d.kind) {
    case 'none':
      return { kind: 'none' };
    case 'now':
      if (c.type.kind !== 'datetime' && c.type.kind !== 'timestamp') throw SqlError.of('ER_INVALID_DEFAULT', c.name);
      return { kind: 'now', fsp: d.fsp };
    case 'expr':
      return literalDefault(c, compileExpr(d.expr, EMPTY_SCOPE, 'field list')([], ctx), ctx);
  }
}

function literalDefault(c: ColumnDef, v: Value, ctx: EvalContext): ColumnDefault {
  if (v === null) {
    if (c.notNull || c.primaryKey) throw SqlError.of('ER_INVALID_DEFAULT', c.name);
    return { kind: 'null' };
  }
  if (NO_DEFAULT_KINDS.has(c.type.kind)) throw SqlError.of('ER_BLOB_CANT_HAVE_DEFAULT', c.name);
  let cast: Value;
  try {
    cast = coerceToColumn(v, { name: c.name, type: c.type }, 1, strictContext(ctx));
  } catch (err) {
    if (isSqlError(err)) throw SqlError.of('ER_INVALID_DEFAULT', c.name);
    throw err;
  }
  if (cast instanceof Uint8Array) return { kind: 'literal', text: utf8Decode(cast), binary: true };
  return { kind: 'literal', text: defaultText(cast, c.type) };
}

function defaultText(v: Value, type: ColumnType): string {
  if (isDecimal(v)) return v.toFixed(type.scale);
  if (isBinaryType(type) && typeof v === 'string') return v;
  return valueToString(v);
}

/** Evaluation context that reports every cast problem as an error. */
function strictContext(ctx: EvalContext): EvalContext {
  return {
    params: ctx.params,
    strict: true,
    getVariable: (scope, name) => ctx.getVariable(scope, name),
    lastInsertId: () => ctx.lastInsertId(),
    rowCount: () => ctx.rowCount(),
    foundRows: () => ctx.foundRows(),
    currentDatabase: () => ctx.currentDatabase(),
    currentUser: () => ctx.currentUser(),
    connectionId: () => ctx.connectionId(),
    now: (): DateTime => ctx.now(),
    warn: (code, message) => {
      throw new SqlError('ER_UNKNOWN_ERROR', `${code}: ${message}`);
    },
  };
}

export interface TableOptions {
  comment: string;
  charset?: string;
  collation?: string;
  autoIncrementStart?: bigint;
}

/** ENGINE is accepted and ignored (everything is InnoDB-like); the rest maps to the spec. */
export function tableOptions(options: Readonly<Record<string, string>>): TableOptions {
  const out: TableOptions = { comment: '' };
  for (const [key, raw] of Object.entries(options)) {
    const value = unquote(raw);
    const k = key.toUpperCase().replace(/^DEFAULT\s+/, '').replace(/\s+/g, ' ');
    if (k === 'CHARSET' || k === 'CHARACTER SET') out.charset = value.toLowerCase() === 'utf8' ? 'utf8mb3' : value.toLowerCase();
    else if (k === 'COLLATE') out.collation = knownCollation(value);
    else if (k === 'COMMENT') out.comment = value;
    else if (k === 'AUTO_INCREMENT' && /^\d+$/.test(value)) out.autoIncrementStart = BigInt(value);
  }
  return out;
}

/** The canonical name of a collation (`utf8_general_ci` -> `utf8mb3_general_ci`); 1273 when unknown. */
export function knownCollation(name: string): string {
  const c = findCollation(name);
  if (c === undefined) throw SqlError.of('ER_UNKNOWN_COLLATION', name);
  return c.name;
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === "'" || t[0] === '"') && t[t.length - 1] === t[0]) {
    return t.slice(1, -1).replace(/''/g, "'").replace(/\\(.)/g, '$1');
  }
  return t;
}
