/**
 * A key run: many puts of keys that share a prefix, given as fixed-width records in a byte arena
 * and an order over them, so that a bulk writer (the sorted index build,
 * catalog/sorted-backfill.ts) hands a store a batch of thousands of keys without an object per
 * key. A store that commits runs itself (Store.commitsRuns: the embedded store encodes the keys
 * straight into its redo record and checks the whole run with one cursor walk) takes it as is;
 * for any other, the transaction layer turns it into plain mutations (runMutations).
 *
 * Record r is the bytes records[r * stride, (r + 1) * stride), stride = width + valueWidth. Key i
 * of the run (from <= i < to) is `prefix` followed by the first `width` bytes of record order[i]
 * (the first lengths[order[i]] bytes when the run has `lengths`: key parts of several lengths,
 * each padded to `width`); its value is the record's last `valueWidth` bytes, or `value` for
 * every key when valueWidth is 0 (or absent). The keys must be strictly ascending (memcmp order)
 * and none may also be a mutation of the same request. Each put is checked like a plain
 * mutation: the commit fails (1213) if the key was committed after the request's startTs.
 *
 * Example: prefix `74 01`, width 2, records `05 00 | 03 00 | 04 00`, order [1, 2, 0], from 0,
 * to 3, value `09`: puts of `74 01 03 00`, `74 01 04 00`, `74 01 05 00`, each with value `09`.
 * With width 1 and valueWidth 1 instead, the same records put `74 01 03` = `00`, `74 01 04` =
 * `00`, `74 01 05` = `00`.
 */
import { copyRange } from '../util/index.js';
import type { Mutation } from './kv.js';

export interface KeyRun {
  readonly prefix: Uint8Array;
  readonly records: Uint8Array;
  /** Bytes of each record that follow the prefix in its key (at most, with `lengths`). */
  readonly width: number;
  /** Per record (by record number): the length of its key part, when they differ. */
  readonly lengths?: Uint16Array;
  /** Bytes of each record after its key part that are its key's value (0 or absent: `value`). */
  readonly valueWidth?: number;
  readonly order: Uint32Array;
  readonly from: number;
  readonly to: number;
  /** The value of every key when valueWidth is 0 (not copied: keep it unchanged until the commit settles). */
  readonly value: Uint8Array;
}

/** Bytes from one record to the next. */
export function runStride(run: KeyRun): number {
  return run.width + (run.valueWidth ?? 0);
}

/** Length of every value of the run. */
export function runValueLength(run: KeyRun): number {
  const own = run.valueWidth ?? 0;
  return own > 0 ? own : run.value.length;
}

/** Keys in the run. */
export function runLength(run: KeyRun): number {
  return run.to - run.from;
}

/** Length of the run's longest key (of every key, without `lengths`). */
export function runKeyLength(run: KeyRun): number {
  return run.prefix.length + run.width;
}

/** Length of key i (from <= i < to) of the run. */
export function runKeyLengthOf(run: KeyRun, i: number): number {
  return run.prefix.length + keyPartLength(run, run.order[i] as number);
}

function keyPartLength(run: KeyRun, record: number): number {
  return run.lengths === undefined ? run.width : (run.lengths[record] as number);
}

/** Writes key i (from <= i < to) of the run into `out` at `at`; returns the end. */
export function writeRunKey(run: KeyRun, i: number, out: Uint8Array, at: number): number {
  const { prefix, records } = run;
  let to = at;
  for (let p = 0; p < prefix.length; p++) out[to++] = prefix[p] as number;
  const r = run.order[i] as number;
  return copyRange(records, r * runStride(run), keyPartLength(run, r), out, to);
}

/** Writes the value of key i (from <= i < to) of the run into `out` at `at`; returns the end. */
export function writeRunValue(run: KeyRun, i: number, out: Uint8Array, at: number): number {
  const own = run.valueWidth ?? 0;
  if (own === 0) return copyRange(run.value, 0, run.value.length, out, at);
  return copyRange(run.records, (run.order[i] as number) * runStride(run) + run.width, own, out, at);
}

/** Key i (from <= i < to) of the run, in a fresh array. */
export function runKey(run: KeyRun, i: number): Uint8Array {
  const key = new Uint8Array(runKeyLengthOf(run, i));
  writeRunKey(run, i, key, 0);
  return key;
}

/** The value of key i (from <= i < to) of the run: `value` itself, or a fresh copy of the record's. */
export function runValue(run: KeyRun, i: number): Uint8Array {
  if ((run.valueWidth ?? 0) === 0) return run.value;
  const value = new Uint8Array(runValueLength(run));
  writeRunValue(run, i, value, 0);
  return value;
}

/** The run as plain mutations, for stores that do not commit runs. */
export function runMutations(run: KeyRun): Mutation[] {
  const out: Mutation[] = [];
  for (let i = run.from; i < run.to; i++) out.push({ op: 'put', key: runKey(run, i), value: runValue(run, i) });
  return out;
}

/**
 * Throws unless the run's shape is consistent: bounds within `order`, every record index within
 * the arena, key parts within `width`, and keys strictly ascending (a caller's bug otherwise; a
 * store relies on the order).
 */
export function assertRunShape(run: KeyRun): void {
  const { order, from, to, width, records, lengths } = run;
  const valueWidth = run.valueWidth ?? 0;
  if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= order.length) || width <= 0 || valueWidth < 0) {
    throw new Error(`key run: bounds ${from}..${to} of ${order.length}, width ${width} + ${valueWidth}`);
  }
  const stride = runStride(run);
  const count = Math.min(Math.floor(records.length / stride), lengths === undefined ? Infinity : lengths.length);
  for (let i = from; i < to; i++) {
    const r = order[i] as number;
    if (r >= count) throw new Error(`key run: record ${r} outside the arena's ${count}`);
    const length = keyPartLength(run, r);
    if (length <= 0 || length > width) throw new Error(`key run: record ${r}'s key part of ${length} bytes, width ${width}`);
    if (i > from && compareKeys(run, stride, order[i - 1] as number, r) >= 0) {
      throw new Error(`key run: key ${i} is not above the key before it`);
    }
  }
}

/** Compares the key parts of records a and b (memcmp order: a proper prefix first). */
function compareKeys(run: KeyRun, stride: number, a: number, b: number): number {
  const records = run.records;
  const la = keyPartLength(run, a);
  const lb = keyPartLength(run, b);
  for (let i = 0, x = a * stride, y = b * stride, n = Math.min(la, lb); i < n; i++, x++, y++) {
    const d = (records[x] as number) - (records[y] as number);
    if (d !== 0) return d;
  }
  return la - lb;
}
