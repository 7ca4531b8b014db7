/**
 * BIT(n) values: big-endian bytes, ceil(n / 8) of them (what MySQL returns to clients). In a
 * numeric context (`b + 0`, `b = 5`) they read as an unsigned integer (enum-set.ts numericView).
 */
import { Decimal, type ColumnType, type Value } from '../../types/index.js';
import { utf8Encode } from '../../util/index.js';
import { toDecimal } from './to-number.js';

export function bitBytesToBigInt(b: Uint8Array): bigint {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  return n;
}

function bigIntToBytes(n: bigint, width: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(width / 8));
  let v = n;
  for (let i = out.length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The stored bytes for `v`, and whether it fit in the width (false: 1406, the value is all ones). */
export function bitValue(v: Exclude<Value, null>, t: ColumnType): { bytes: Uint8Array; fits: boolean } {
  const width = Math.max(1, t.length);
  const max = (1n << BigInt(width)) - 1n;
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number' || v instanceof Decimal) {
    n = BigInt((toDecimal(v) as Decimal).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
  } else n = bitBytesToBigInt(v instanceof Uint8Array ? v : utf8Encode(String(v)));
  if (n < 0n || n > max) return { bytes: bigIntToBytes(max, width), fits: false };
  return { bytes: bigIntToBytes(n, width), fits: true };
}
