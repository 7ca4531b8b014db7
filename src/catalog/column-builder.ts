/** ColumnSpec -> ColumnInfo with MySQL's column-level validations (names, defaults, AUTO_INCREMENT). */
import { SqlError } from '../errors/index.js';
import { type ColumnType, DEFAULT_COLLATION, isIntegerType, isStringType } from '../types/index.js';
import { literalValue } from './column-default.js';
import type { ColumnSpec } from './specs.js';
import type { ColumnDefault, ColumnInfo } from './types.js';

export const MAX_IDENTIFIER_LENGTH = 64;

/**
 * Builds the columns of a new table. `pkNames` holds the lower-cased names of primary key
 * columns: MySQL silently makes them NOT NULL.
 */
export function buildColumns(specs: readonly ColumnSpec[], pkNames: ReadonlySet<string>): ColumnInfo[] {
  if (specs.length === 0) throw SqlError.of('ER_TABLE_MUST_HAVE_COLUMNS');
  const seen = new Set<string>();
  return specs.map((spec, i) => {
    checkColumnName(spec.name);
    const lower = spec.name.toLowerCase();
    if (seen.has(lower)) throw SqlError.of('ER_DUP_FIELDNAME', spec.name);
    seen.add(lower);
    const notNull = spec.notNull || pkNames.has(lower);
    return buildColumn(spec, i + 1, i, notNull);
  });
}

/** One column with id `id` at `offset`; validates its default and AUTO_INCREMENT. */
export function buildColumn(spec: ColumnSpec, id: number, offset: number, notNull: boolean): ColumnInfo {
  if (spec.autoIncrement && !autoIncrementAllowed(spec.type)) throw SqlError.of('ER_WRONG_FIELD_SPEC', spec.name);
  checkDefault(spec.name, spec.type, spec.default, notNull, spec.autoIncrement);
  return {
    id,
    name: spec.name,
    offset,
    type: spec.type,
    notNull,
    default: spec.default,
    autoIncrement: spec.autoIncrement,
    onUpdateNow: spec.onUpdateNow,
    comment: spec.comment,
  };
}

/**
 * A string column that named no collation (the parser leaves DEFAULT_COLLATION) takes the
 * table's. A column that explicitly names the default collation in a table with another default
 * is indistinguishable and takes the table's too.
 */
export function withTableCollation(spec: ColumnSpec, tableCollation: string): ColumnSpec {
  if (!isStringType(spec.type) || spec.type.collation !== DEFAULT_COLLATION || tableCollation === DEFAULT_COLLATION) return spec;
  if (tableCollation === 'binary') return spec;
  return { ...spec, type: { ...spec.type, collation: tableCollation } };
}

export function checkColumnName(name: string): void {
  if (name === '' || name.endsWith(' ')) throw SqlError.of('ER_WRONG_COLUMN_NAME', name);
  if (name.length > MAX_IDENTIFIER_LENGTH) throw SqlError.of('ER_TOO_LONG_IDENT', name);
}

function autoIncrementAllowed(t: ColumnType): boolean {
  return (isIntegerType(t) && t.kind !== 'year') || t.kind === 'float' || t.kind === 'double';
}

export function isLobType(t: ColumnType): boolean {
  return t.kind === 'text' || t.kind === 'blob' || t.kind === 'json';
}

function checkDefault(name: string, type: ColumnType, def: ColumnDefault, notNull: boolean, autoInc: boolean): void {
  switch (def.kind) {
    case 'none':
      return;
    case 'null':
      if (notNull) throw SqlError.of('ER_INVALID_DEFAULT', name);
      return;
    case 'now':
      if (autoInc) throw SqlError.of('ER_INVALID_DEFAULT', name);
      if (isLobType(type)) throw SqlError.of('ER_BLOB_CANT_HAVE_DEFAULT', name);
      if ((type.kind !== 'datetime' && type.kind !== 'timestamp') || def.fsp !== type.scale) {
        throw SqlError.of('ER_INVALID_DEFAULT', name);
      }
      return;
    case 'literal':
      if (autoInc) throw SqlError.of('ER_INVALID_DEFAULT', name);
      if (isLobType(type)) throw SqlError.of('ER_BLOB_CANT_HAVE_DEFAULT', name);
      if (!literalFits(def.text, type)) throw SqlError.of('ER_INVALID_DEFAULT', name);
      return;
  }
}

function literalFits(text: string, type: ColumnType): boolean {
  const v = literalValue(text, type);
  if (v === undefined) return false;
  if (typeof v === 'string' && type.length >= 0) return [...v].length <= type.length;
  if (v instanceof Uint8Array && type.length >= 0) return v.length <= type.length;
  return true;
}
