/** Bit operations on unsigned 64-bit integers (MySQL's non-binary-string semantics). */
import type { Value } from '../../types/index.js';
import { toBitOperand, UINT64_MAX } from './to-number.js';

export type BitOp = '&' | '|' | '^' | '<<' | '>>';

export function bitBinary(op: BitOp, a: Value, b: Value): Value {
  const x = toBitOperand(a);
  const y = toBitOperand(b);
  if (x === null || y === null) return null;
  switch (op) {
    case '&':
      return x & y;
    case '|':
      return x | y;
    case '^':
      return x ^ y;
    case '<<':
      return y >= 64n ? 0n : (x << y) & UINT64_MAX;
    case '>>':
      return y >= 64n ? 0n : x >> y;
  }
}

export function bitNot(a: Value): Value {
  const x = toBitOperand(a);
  return x === null ? null : UINT64_MAX ^ x;
}

/** BIT_COUNT-style helper kept here for the BIT_* aggregates. */
export function toBits(v: Value): bigint | null {
  return toBitOperand(v);
}
