/**
 * Text-protocol rendering of one value of a result column.
 * Spec: /work/shared/reference/mysql-protocol.md §3.1 (text row formatting).
 */
import { Decimal, type ColumnType, type Value } from '../types/index.js';
import { formatDouble, formatFloat } from './number-format.js';

/** The text of a non-NULL value: bigint decimal, DECIMAL with the column scale, shortest doubles. */
export function textValue(v: Exclude<Value, null>, type: ColumnType): string | Uint8Array {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (type.kind === 'float') return formatFloat(v);
    if (type.kind === 'decimal') return new Decimal(v).toFixed(type.scale);
    return formatDouble(v);
  }
  if (v instanceof Uint8Array) return v;
  if (v instanceof Decimal) return type.kind === 'decimal' ? v.toFixed(type.scale) : v.toString();
  return v.toString();
}
