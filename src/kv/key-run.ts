/**
 * A key run: many puts of one value under keys that share a prefix, given as fixed-width suffixes
 * in a byte arena and an order over them, so that a bulk writer (the sorted index build,
 * catalog/sorted-backfill.ts) hands a store a batch of thousands of keys without an object per
 * key. A store that commits runs itself (Store.commitsRuns: the embedded store encodes the keys
 * straight into its redo record and checks the whole run with one cursor walk) takes it as is;
 * for any other, the transaction layer turns it into plain mutations (runMutations).
 *
 * Key i of the run (from <= i < to) is `prefix` followed by arena record `order[i]`, i.e. the
 * bytes records[order[i] * width, (order[i] + 1) * width). The keys must be strictly ascending
 * (memcmp order) and none may also be a mutation of the same request. Each put is checked like a
 * plain mutation: the commit fails (1213) if the key was committed after the request's startTs.
 *
 * Example: prefix `74 01`, width 2, records `05 00 | 03 00 | 04 00`, order [1, 2, 0], from 0,
 * to 3: puts of `74 01 03 00`, `74 01 04 00`, `74 01 05 00`.
 */
import type { Mutation } from './kv.js';

export interface KeyRun {
  readonly prefix: Uint8Array;
  readonly records: Uint8Array;
  readonly width: number;
  readonly order: Uint32Array;
  readonly from: number;
  readonly to: number;
  /** The value of every key (not copied: callers must not change it until the commit settles). */
  readonly value: Uint8Array;
}

/** Keys in the run. */
export function runLength(run: KeyRun): number {
  return run.to - run.from;
}

/** Length of every key of the run. */
export function runKeyLength(run: KeyRun): number {
  return run.prefix.length + run.width;
}

/** Records this wide or wider are copied with one TypedArray.set, narrower ones byte by byte. */
const COPY_WITH_SET = 32;

/** Writes key i (from <= i < to) of the run into `out` at `at`; returns the end. */
export function writeRunKey(run: KeyRun, i: number, out: Uint8Array, at: number): number {
  const { prefix, records, width } = run;
  let to = at;
  for (let p = 0; p < prefix.length; p++) out[to++] = prefix[p] as number;
  const from = (run.order[i] as number) * width;
  if (width >= COPY_WITH_SET) {
    out.set(records.subarray(from, from + width), to);
    return to + width;
  }
  for (let b = from, end = from + width; b < end; b++) out[to++] = records[b] as number;
  return to;
}

/** Key i (from <= i < to) of the run, in a fresh array. */
export function runKey(run: KeyRun, i: number): Uint8Array {
  const key = new Uint8Array(runKeyLength(run));
  writeRunKey(run, i, key, 0);
  return key;
}

/** The run as plain mutations, for stores that do not commit runs. */
export function runMutations(run: KeyRun): Mutation[] {
  const out: Mutation[] = [];
  for (let i = run.from; i < run.to; i++) out.push({ op: 'put', key: runKey(run, i), value: run.value });
  return out;
}

/**
 * Throws unless the run's shape is consistent: bounds within `order`, every record index within
 * the arena, and keys strictly ascending (a caller's bug otherwise; a store relies on the order).
 */
export function assertRunShape(run: KeyRun): void {
  const { order, from, to, width, records } = run;
  if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= order.length) || width <= 0) {
    throw new Error(`key run: bounds ${from}..${to} of ${order.length}, width ${width}`);
  }
  const count = Math.floor(records.length / width);
  for (let i = from; i < to; i++) {
    const r = order[i] as number;
    if (r >= count) throw new Error(`key run: record ${r} outside the arena's ${count}`);
    if (i > from && compareRecords(records, width, order[i - 1] as number, r) >= 0) {
      throw new Error(`key run: key ${i} is not above the key before it`);
    }
  }
}

function compareRecords(records: Uint8Array, width: number, a: number, b: number): number {
  for (let i = 0, x = a * width, y = b * width; i < width; i++, x++, y++) {
    const d = (records[x] as number) - (records[y] as number);
    if (d !== 0) return d;
  }
  return 0;
}
