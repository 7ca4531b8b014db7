/**
 * Row format v2 encoder compiled for one fixed column list (a table's stored columns): the id
 * order, value classes and header widths are worked out once, so encoding a row is one pass
 * over its values plus one header write. Produces exactly the bytes of `encodeRow` (row-format.ts
 * documents them; test/codec/row-encoder-compiled.test.ts checks the two agree).
 *
 * frozen: part of the on-disk format.
 */
import type { ColumnType, Value } from '../types/index.js';
import { allocBytes } from '../util/index.js';
import { sharedWriter } from './byte-writer.js';
import { MAX_COLUMNS, ROW_FLAG_BIG, ROW_HEADER_LEN, ROW_VERSION, SMALL_MAX_ID, SMALL_MAX_OFFSET } from './row-format.js';
import { sortedOrder, writeClassValue } from './row-encoder.js';
import { valueClass, type ValueClass } from './value-class.js';

/** Encodes `row[offsets[i]]` as column `ids[i]` for every i (the offsets given at compile time). */
export type RowEncoder = (row: readonly Value[]) => Uint8Array;

/** Scratch per encode (encoders never await, so one module-wide set serves every encoder). */
let ends = new Int32Array(64);
let nullAt = new Uint8Array(64);

/**
 * Compiles an encoder for columns `ids` (any order, distinct) of types `types`, reading each
 * value at `offsets[i]` of the row handed to it (default: position i). A value that is
 * `undefined` (the row is too short) throws.
 */
export function compileRowEncoder(ids: readonly number[], types: readonly ColumnType[], offsets?: readonly number[]): RowEncoder {
  const n = ids.length;
  if (types.length !== n || (offsets !== undefined && offsets.length !== n)) throw new Error(`codec: row encoder got ${n} ids, ${types.length} types`);
  if (n > MAX_COLUMNS) throw new Error(`codec: too many columns (${n})`);
  const order = sortedOrder(ids) ?? ids.map((_, i) => i);
  const sortedIds = order.map((i) => ids[i] as number);
  const at = order.map((i) => (offsets === undefined ? i : (offsets[i] as number)));
  const sortedTypes = order.map((i) => types[i] as ColumnType);
  const classes: ValueClass[] = sortedTypes.map(valueClass);
  const bigIds = n > 0 && (sortedIds[n - 1] as number) > SMALL_MAX_ID;
  if (ends.length < n) {
    ends = new Int32Array(n);
    nullAt = new Uint8Array(n);
  }
  return (row) => {
    const w = sharedWriter();
    const ends_ = ends;
    const nullAt_ = nullAt;
    let notNull = 0;
    for (let k = 0; k < n; k++) {
      const v = row[at[k] as number];
      if (v === undefined) throw new Error(`codec: row has no value at offset ${at[k]}`);
      if (v === null) {
        nullAt_[k] = 1;
        continue;
      }
      nullAt_[k] = 0;
      writeClassValue(w, v, classes[k] as ValueClass, sortedTypes[k] as ColumnType);
      ends_[notNull++] = w.pos;
    }
    const big = bigIds || w.pos > SMALL_MAX_OFFSET;
    const idW = big ? 4 : 1;
    const offW = big ? 4 : 2;
    const header = ROW_HEADER_LEN + n * idW + notNull * offW;
    const out = allocBytes(header + w.pos);
    out[0] = ROW_VERSION;
    out[1] = big ? ROW_FLAG_BIG : 0;
    out[2] = notNull & 0xff;
    out[3] = notNull >>> 8;
    out[4] = (n - notNull) & 0xff;
    out[5] = (n - notNull) >>> 8;
    let p = ROW_HEADER_LEN;
    let q = ROW_HEADER_LEN + notNull * idW;
    for (let k = 0; k < n; k++) {
      const id = sortedIds[k] as number;
      if (nullAt_[k] === 0) p = putLE(out, p, id, idW);
      else q = putLE(out, q, id, idW);
    }
    p = q;
    for (let k = 0; k < notNull; k++) p = putLE(out, p, ends_[k] as number, offW);
    out.set(w.buf.subarray(0, w.pos), p);
    return out;
  };
}

function putLE(out: Uint8Array, p: number, v: number, width: number): number {
  out[p] = v & 0xff;
  if (width === 1) return p + 1;
  out[p + 1] = (v >>> 8) & 0xff;
  if (width === 2) return p + 2;
  out[p + 2] = (v >>> 16) & 0xff;
  out[p + 3] = (v >>> 24) & 0xff;
  return p + 4;
}
