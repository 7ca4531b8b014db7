/**
 * Hash keys of values and rows for GROUP BY and DISTINCT (1 and 1.0 group together). Strings
 * key by their weight under the column's collation, so 'a' and 'A' group together under `_ci`.
 */
import { Decimal, type Collation, type Value } from '../../types/index.js';

export function valueKey(v: Value, coll?: Collation): string {
  if (v === null) return 'N';
  switch (typeof v) {
    case 'bigint':
      return `i${v}`;
    case 'number':
      return Number.isInteger(v) ? `i${v}` : `f${v}`;
    case 'string':
      return `s${coll === undefined ? v : coll.weight(v)}`;
  }
  if (v instanceof Uint8Array) return `b${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  if (v instanceof Decimal) return v.isInteger() ? `i${v.toFixed(0)}` : `f${v.toString()}`;
  return `t${v.toString()}`;
}

/** `colls[i]`: the collation of column i (binary when absent). */
export function rowKey(values: readonly Value[], colls: ReadonlyArray<Collation | undefined> = []): string {
  if (values.length === 1) return valueKey(values[0] as Value, colls[0]);
  let out = '';
  for (let i = 0; i < values.length; i++) out += `${valueKey(values[i] as Value, colls[i])}\u0001`;
  return out;
}

/** The collations to key a row by: undefined for binary ones (the value itself is its key). */
export function keyCollations(colls: readonly Collation[]): Array<Collation | undefined> {
  return colls.map((c) => (c.binary ? undefined : c));
}
