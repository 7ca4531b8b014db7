/**
 * Frame bounds of a window function for each row of a partition, as a half-open row range.
 * ROWS offsets count rows; RANGE offsets are added to (ASC) or subtracted from (DESC) the single
 * ORDER BY key, and a row whose key is NULL gets its NULL peers for an offset bound.
 */
import { compareValues, compileExpr, intervalShift } from '../expr/index.js';
import { EMPTY_SCHEMA } from '../plan/index.js';
import type { FrameBound, WindowFrame } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { Decimal, type Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import type { Partition } from './window-partition.js';

/** [start, end) of row k's frame (start >= end: empty). */
export type FrameOf = (p: Partition, k: number) => readonly [number, number];

type BoundAt = (p: Partition, k: number) => number;

/** Compiles once; the returned function evaluates the offsets for one execution. */
export function compileFrame(frame: WindowFrame, windowName: string, desc: boolean): (ctx: ExecContext) => FrameOf {
  const start = compileBound(frame, frame.start, true, windowName, desc);
  const end = compileBound(frame, frame.end, false, windowName, desc);
  return (ctx) => {
    const s = start(ctx);
    const e = end(ctx);
    return (p, k) => [s(p, k), e(p, k)];
  };
}

function compileBound(frame: WindowFrame, b: FrameBound, isStart: boolean, windowName: string, desc: boolean): (ctx: ExecContext) => BoundAt {
  switch (b.kind) {
    case 'unboundedPreceding':
      return () => () => 0;
    case 'unboundedFollowing':
      return () => (p) => p.rows.length;
    case 'currentRow':
      if (frame.unit === 'rows') return () => (_p, k) => (isStart ? k : k + 1);
      return () => (p, k) => (isStart ? (p.peerStart[k] as number) : (p.peerEnd[k] as number));
    default: {
      const offset = b.offset;
      const ev = compileExpr(offset.kind === 'interval' ? offset.expr : offset, EMPTY_SCHEMA, 'window frame');
      const sign = b.kind === 'preceding' ? -1 : 1;
      const dir = desc ? -sign : sign;
      return (ctx) => {
        if (offset.kind === 'interval') {
          const shift = intervalShift(ev([], ctx), offset.unit);
          if (shift === null) throw SqlError.of('ER_WINDOW_FRAME_ILLEGAL', windowName);
          return rangeBound((key) => shift(key, dir > 0 ? 1 : -1), isStart, !desc);
        }
        const off = checkOffset(ev([], ctx), frame.unit, windowName);
        if (frame.unit === 'rows') {
          const n = Number(off);
          return (p, k) => clamp(k + sign * n + (isStart ? 0 : 1), p.rows.length);
        }
        return rangeBound((key) => shifted(key, off, dir), isStart, !desc);
      };
    }
  }
}

function clamp(i: number, n: number): number {
  return i < 0 ? 0 : i > n ? n : i;
}

function checkOffset(v: Value, unit: WindowFrame['unit'], windowName: string): bigint | number | Decimal {
  const bad = (): SqlError => SqlError.of('ER_WINDOW_FRAME_ILLEGAL', windowName);
  if (typeof v === 'bigint') {
    if (v < 0n) throw bad();
    return v;
  }
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return BigInt(v.trim());
  if (unit === 'rows') {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    throw bad();
  }
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (v instanceof Decimal && !v.isNegative()) return v;
  throw bad();
}

/** The key `sign * off` away from `key`, in the key's own arithmetic. */
function shifted(key: Value, off: bigint | number | Decimal, sign: number): Value {
  if (typeof key === 'number') return key + sign * Number(off);
  if (typeof key === 'bigint' && typeof off === 'bigint') return sign > 0 ? key + off : key - off;
  const k = key instanceof Decimal ? key : new Decimal(String(key));
  const o = off instanceof Decimal ? off : new Decimal(String(off));
  return sign > 0 ? k.plus(o) : k.minus(o);
}

/**
 * RANGE offset bound: `shift` moves the current key to the bound's key (added for FOLLOWING on
 * an ascending key, subtracted on a descending one). The start is the first row not before
 * the bound, the end one past the last row not after it; both found by binary search.
 */
function rangeBound(shift: (key: Value) => Value, isStart: boolean, asc: boolean): BoundAt {
  return (p, k) => {
    const key = (p.keys[k] as readonly Value[])[0] ?? null;
    if (key === null) return isStart ? (p.peerStart[k] as number) : (p.peerEnd[k] as number);
    const bound = shift(key);
    // position of x relative to bound in the partition's order: <0 before, 0 at, >0 after.
    const rel = (x: Value): number => {
      if (x === null) return asc ? -1 : 1;
      const c = compareValues(x, bound) ?? 0;
      return asc ? c : -c;
    };
    return firstIndex(p.rows.length, (i) => (isStart ? rel(key0(p, i)) >= 0 : rel(key0(p, i)) > 0));
  };
}

function key0(p: Partition, i: number): Value {
  return (p.keys[i] as readonly Value[])[0] ?? null;
}

/** The first i in [0, n) with pred(i) (pred monotone false..true), or n. */
function firstIndex(n: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
