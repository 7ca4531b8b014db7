/**
 * TableSpec -> TableInfo with MySQL's CREATE TABLE validations, and the handle decision:
 * - a single-column integer PRIMARY KEY (no prefix; BIGINT UNSIGNED excluded because its values
 *   do not fit the signed int64 handle order) => pkIsHandle, handleKind 'int';
 * - any other PRIMARY KEY => handleKind 'common' (clustered on the PK's memcomparable encoding);
 * - no PRIMARY KEY => handleKind 'int' with a hidden row id (Catalog.allocAutoId).
 * The PRIMARY index is always listed in `indexes` but never has entries of its own.
 */
import { SqlError } from '../errors/index.js';
import { DEFAULT_COLLATION, charsetDefaultCollation, isIntegerType } from '../types/index.js';
import { buildColumns, MAX_IDENTIFIER_LENGTH, withTableCollation } from './column-builder.js';
import { foreignKeyIndex, hasLeadingIndex, nameChecks, nameForeignKeys, storedForeignKey, type ForeignKeySpec } from './constraints.js';
import { buildIndexes, checkAutoIncrementKey } from './index-builder.js';
import type { IndexSpec, TableSpec } from './specs.js';
import type { ColumnInfo, DatabaseInfo, IndexInfo, TableInfo } from './types.js';

export function buildTableInfo(db: DatabaseInfo, spec: TableSpec, id: number): TableInfo {
  checkTableName(spec.name);
  const fks = nameForeignKeys(spec.name, [], spec.foreignKeys, db.name);
  const specs = withForeignKeyIndexes(allIndexSpecs(spec), spec.foreignKeys);
  const pkNames = new Set(specs.filter((s) => s.primary).flatMap((s) => s.columns.map((c) => c.name.toLowerCase())));
  const collation = spec.collation ?? (spec.charset === undefined ? db.collation : defaultCollation(spec.charset));
  const columns = buildColumns(spec.columns.map((c) => withTableCollation(c, collation)), pkNames);
  const indexes = buildIndexes(columns, specs);
  const autoIncrementOffset = checkAutoIncrementKey(columns, indexes);
  const pkIsHandle = isIntHandlePk(columns, indexes.find((ix) => ix.primary));
  const hasPk = indexes.some((ix) => ix.primary);
  const checks = nameChecks(spec.name, [], spec.checks ?? []);
  for (const c of checks) {
    const missing = c.columns.find((n) => !columns.some((col) => col.name.toLowerCase() === n));
    if (missing !== undefined) throw SqlError.of('ER_CHECK_CONSTRAINT_REFERS_UNKNOWN_COLUMN', c.name, missing);
  }
  return {
    id,
    dbName: db.name,
    name: spec.name,
    columns,
    indexes,
    pkIsHandle,
    handleKind: hasPk && !pkIsHandle ? 'common' : 'int',
    autoIncrementOffset,
    maxColumnId: columns.length,
    maxIndexId: indexes.length,
    foreignKeys: fks.map((fk) => storedForeignKey({ ...fk, columns: fk.columns.map((c) => columnName(columns, c)) })),
    ...(checks.length > 0 ? { checks } : {}),
    comment: spec.comment,
    charset: spec.charset ?? db.charset,
    collation,
    revision: 1,
  };
}

/** Inline column PRIMARY KEY / UNIQUE flags first (in column order), then the table's keys. */
function allIndexSpecs(spec: TableSpec): IndexSpec[] {
  const inline: IndexSpec[] = [];
  for (const c of spec.columns) {
    if (c.primaryKey) inline.push({ columns: [{ name: c.name }], unique: true, primary: true });
    if (c.unique) inline.push({ columns: [{ name: c.name }], unique: true, primary: false });
  }
  return [...inline, ...spec.indexes];
}

/** InnoDB's implicit index for each foreign key (named or not yet named) whose columns start no index. */
export function withForeignKeyIndexes(specs: IndexSpec[], fks: readonly ForeignKeySpec[]): IndexSpec[] {
  const out = [...specs];
  for (const fk of fks) {
    if (hasLeadingIndex(out.map((s) => ({ columns: s.columns })), fk.columns)) continue;
    out.push(foreignKeyIndex(fk));
  }
  return out;
}

function columnName(columns: readonly ColumnInfo[], name: string): string {
  const col = columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (col === undefined) throw SqlError.of('ER_KEY_COLUMN_DOES_NOT_EXITS', name);
  return col.name;
}

export function isIntHandlePk(columns: readonly ColumnInfo[], pk: IndexInfo | undefined): boolean {
  if (pk === undefined || pk.columns.length !== 1) return false;
  const part = pk.columns[0];
  const col = part === undefined ? undefined : columns[part.offset];
  if (part === undefined || col === undefined || part.length !== undefined) return false;
  if (!isIntegerType(col.type) || col.type.kind === 'year') return false;
  return !(col.type.kind === 'bigint' && col.type.unsigned);
}

export function checkTableName(name: string): void {
  if (name === '' || name.endsWith(' ')) throw SqlError.of('ER_WRONG_TABLE_NAME', name);
  if (name.length > MAX_IDENTIFIER_LENGTH) throw SqlError.of('ER_TOO_LONG_IDENT', name);
}

export function checkDatabaseName(name: string): void {
  if (name === '' || name.endsWith(' ')) throw SqlError.of('ER_WRONG_DB_NAME', name);
  if (name.length > MAX_IDENTIFIER_LENGTH) throw SqlError.of('ER_TOO_LONG_IDENT', name);
}

/** The collation a charset gets when none is named. */
export function defaultCollation(charset: string): string {
  const lower = charset.toLowerCase();
  if (lower === 'utf8mb4') return DEFAULT_COLLATION;
  if (lower === 'binary') return 'binary';
  return charsetDefaultCollation(lower) ?? `${lower}_bin`;
}
