/** Values as MySQL prints them in "Duplicate entry '...' for key '...'" (parts joined by '-'). */
import { type Value, Decimal, DateTime, Duration } from '../types/index.js';
import { utf8Decode } from '../util/index.js';

export function duplicateEntryText(values: readonly Value[]): string {
  return values.map(valueText).join('-');
}

function valueText(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return String(v);
  if (v instanceof Uint8Array) return utf8Decode(v);
  if (v instanceof Decimal) return v.toFixed();
  if (v instanceof DateTime || v instanceof Duration) return v.toString();
  return String(v);
}
