/**
 * Memcomparable float64 (TiDB `codec.EncodeFloat`, key flag 5), 8 bytes big-endian:
 * take the IEEE-754 bits; if the value is >= 0 set the sign bit, otherwise invert all 64 bits.
 * FLOAT columns are encoded as float64 too. -0 satisfies `>= 0`, so it encodes exactly like +0
 * (as in TiDB) and decodes as +0: the two are equal keys, as MySQL compares them.
 *   1.0  -> BF F0 00 00 00 00 00 00      0 and -0 -> 80 00 00 00 00 00 00 00
 *   -1.0 -> 40 0F FF FF FF FF FF FF      +Infinity -> FF F0 00 00 00 00 00 00
 * NaN is not a SQL value and is rejected.
 *
 * frozen: part of the on-disk format.
 */
import type { ByteWriter } from './byte-writer.js';
import { view8 } from './byte-writer.js';
import { corrupt } from './codec-error.js';

export function writeComparableFloat(w: ByteWriter, f: number): void {
  if (Number.isNaN(f)) throw new RangeError('codec: NaN cannot be encoded');
  w.ensure(8);
  const p = w.pos;
  const b = w.buf;
  w.view.setFloat64(p, f === 0 ? 0 : f);
  if (f >= 0) {
    b[p] = (b[p] as number) | 0x80;
  } else {
    for (let i = p; i < p + 8; i++) b[i] = ~(b[i] as number) & 0xff;
  }
  w.pos = p + 8;
}

export function readComparableFloat(buf: Uint8Array, pos: number): number {
  if (pos + 8 > buf.length) throw corrupt('truncated float');
  const v = view8(buf, pos);
  const first = v.getUint8(0);
  if (first & 0x80) {
    v.setUint8(0, first & 0x7f);
  } else {
    for (let i = 0; i < 8; i++) v.setUint8(i, ~v.getUint8(i) & 0xff);
  }
  return v.getFloat64(0);
}
