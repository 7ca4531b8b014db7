/** Hash keys of values and rows for GROUP BY and DISTINCT (1 and 1.0 group together). */
import { Decimal, type Value } from '../../types/index.js';

export function valueKey(v: Value): string {
  if (v === null) return 'N';
  switch (typeof v) {
    case 'bigint':
      return `i${v}`;
    case 'number':
      return Number.isInteger(v) ? `i${v}` : `f${v}`;
    case 'string':
      return `s${v}`;
  }
  if (v instanceof Uint8Array) return `b${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  if (v instanceof Decimal) return v.isInteger() ? `i${v.toFixed(0)}` : `f${v.toString()}`;
  return `t${v.toString()}`;
}

export function rowKey(values: readonly Value[]): string {
  if (values.length === 1) return valueKey(values[0] as Value);
  let out = '';
  for (const v of values) out += `${valueKey(v)}\u0001`;
  return out;
}
