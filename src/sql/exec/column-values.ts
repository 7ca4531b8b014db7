/** Column-value rules shared by INSERT and UPDATE: implicit defaults, NULL checks, equality, NOW. */
import type { ColumnInfo } from '../../catalog/index.js';
import { type ColumnType, DateTime, Decimal, Duration, type Value, isBinaryType, isIntegerType, isStringType } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { bytesEqual } from '../../util/index.js';
import { compareValues } from '../expr/index.js';
import type { ExecContext } from './context.js';

/** MySQL's implicit default of a NOT NULL column (non-strict inserts). */
export function implicitZero(t: ColumnType): Value {
  if (isIntegerType(t)) return 0n;
  if (t.kind === 'json') return 'null';
  if (t.kind === 'bit') return new Uint8Array(Math.ceil(Math.max(t.length, 1) / 8));
  if (isStringType(t)) return '';
  if (isBinaryType(t)) return t.kind === 'binary' ? new Uint8Array(Math.max(t.length, 0)) : new Uint8Array(0);
  switch (t.kind) {
    case 'float':
    case 'double':
      return 0;
    case 'decimal':
      return new Decimal(0);
    case 'date':
      return new DateTime('date', 0, 0, 0);
    case 'datetime':
    case 'timestamp':
      return new DateTime('datetime', 0, 0, 0, 0, 0, 0, 0, t.scale);
    case 'time':
      return new Duration(0n, t.scale);
    default:
      return null;
  }
}

/** NULL into a NOT NULL column: 1048, or a warning and the implicit default when tolerated. */
export function nullIntoNotNull(col: ColumnInfo, tolerate: boolean, ctx: ExecContext): Value {
  const err = SqlError.of('ER_BAD_NULL_ERROR', col.name);
  if (!tolerate) throw err;
  ctx.warn(err.errno, err.message);
  return implicitZero(col.type);
}

/** Stored-value equality (UPDATE's "changed" test). */
export function sameValue(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && bytesEqual(a, b);
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  return compareValues(a, b) === 0;
}

/** CURRENT_TIMESTAMP for an ON UPDATE column. */
export function nowForColumn(col: ColumnInfo, ctx: ExecContext): Value {
  const now = ctx.now();
  if (col.type.kind === 'date') return now.withKind('date', 0);
  return now.withKind('datetime', col.type.scale);
}
