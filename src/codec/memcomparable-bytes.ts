/**
 * Memcomparable byte strings (TiDB `codec.EncodeBytes`, MyRocks format; key flag 1).
 * The input is cut into 8-byte groups; the last group is zero-padded. Each group is followed by
 * a marker byte 0xFF - padCount. A full group (marker FF) always means another group follows,
 * so an input whose length is a multiple of 8 ends with an all-padding group (marker F7).
 * Encoded length: (floor(len / 8) + 1) * 9. Strings are encoded as their UTF-8 bytes.
 *   []        -> 00 00 00 00 00 00 00 00 F7
 *   01 02 03  -> 01 02 03 00 00 00 00 00 FA
 *   'abcdefgh'-> 61 62 63 64 65 66 67 68 FF 00 00 00 00 00 00 00 00 F7
 *
 * frozen: part of the on-disk format.
 */
import type { ByteWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';
import { writeUtf8, decodeUtf8 } from './utf8.js';

const GROUP = 8;
const STRIDE = 9;
const MARKER = 0xff;

export function encodedBytesLength(len: number): number {
  return (Math.floor(len / GROUP) + 1) * STRIDE;
}

export function writeComparableBytes(w: ByteWriter, src: Uint8Array): void {
  const len = src.length;
  w.ensure(encodedBytesLength(len));
  const out = w.buf;
  let o = w.pos;
  let i = 0;
  for (; i + GROUP <= len; i += GROUP) {
    for (let k = 0; k < GROUP; k++) out[o + k] = src[i + k] as number;
    out[o + GROUP] = MARKER;
    o += STRIDE;
  }
  const rest = len - i;
  for (let k = 0; k < GROUP; k++) out[o + k] = k < rest ? (src[i + k] as number) : 0;
  out[o + GROUP] = MARKER - (GROUP - rest);
  w.pos = o + STRIDE;
}

/**
 * writeComparableString of a collation weight made of `table`'s byte for each of the first `end`
 * characters of `s` (a non-binary collation's asciiWeights: `end` leaves out the trailing spaces
 * PAD SPACE ignores), written without making the weight string. False, with nothing written
 * (w.pos unchanged), when one of those characters is not ASCII: the caller then encodes the
 * collation's weight of `s`.
 */
export function writeComparableAscii(w: ByteWriter, s: string, end: number, table: Uint8Array): boolean {
  w.ensure(encodedBytesLength(end));
  const out = w.buf;
  let o = w.pos;
  let i = 0;
  for (; i + GROUP <= end; i += GROUP) {
    for (let k = 0; k < GROUP; k++) {
      const c = s.charCodeAt(i + k);
      if (c >= 0x80) return false;
      out[o + k] = table[c] as number;
    }
    out[o + GROUP] = MARKER;
    o += STRIDE;
  }
  const rest = end - i;
  for (let k = 0; k < GROUP; k++) {
    if (k >= rest) {
      out[o + k] = 0;
      continue;
    }
    const c = s.charCodeAt(i + k);
    if (c >= 0x80) return false;
    out[o + k] = table[c] as number;
  }
  out[o + GROUP] = MARKER - (GROUP - rest);
  w.pos = o + STRIDE;
  return true;
}

/**
 * Writes the UTF-8 bytes of `s` at `pos`, then spreads them into groups in place, back to front
 * (every byte moves to an index >= its own, so nothing unread is overwritten).
 */
export function writeComparableString(w: ByteWriter, s: string): void {
  w.ensure(encodedBytesLength(s.length * 3));
  const start = w.pos;
  writeUtf8(w, s);
  const len = w.pos - start;
  const buf = w.buf;
  const full = Math.floor(len / GROUP);
  const rest = len - full * GROUP;
  const last = start + full * STRIDE;
  for (let k = GROUP - 1; k >= 0; k--) buf[last + k] = k < rest ? (buf[start + full * GROUP + k] as number) : 0;
  buf[last + GROUP] = MARKER - (GROUP - rest);
  for (let g = full - 1; g >= 0; g--) {
    const from = start + g * GROUP;
    const to = start + g * STRIDE;
    buf[to + GROUP] = MARKER;
    for (let k = GROUP - 1; k >= 0; k--) buf[to + k] = buf[from + k] as number;
  }
  w.pos = last + STRIDE;
}

/** Scans the groups at `pos`: the decoded length and the offset after the last marker. */
function scan(buf: Uint8Array, pos: number): { len: number; next: number } {
  let len = 0;
  for (let p = pos; ; p += STRIDE) {
    if (p + STRIDE > buf.length) throw corrupt('truncated byte group');
    const marker = buf[p + GROUP] as number;
    if (marker === MARKER) {
      len += GROUP;
      continue;
    }
    const pad = MARKER - marker;
    if (pad > GROUP) throw corrupt(`bad byte-group marker ${marker}`);
    return { len: len + GROUP - pad, next: p + STRIDE };
  }
}

export function readComparableBytes(buf: Uint8Array, pos: number): { value: Uint8Array; next: number } {
  const { len, next } = scan(buf, pos);
  const out = new Uint8Array(len);
  let o = 0;
  for (let p = pos; o < len; p += STRIDE) {
    const n = Math.min(GROUP, len - o);
    for (let k = 0; k < n; k++) out[o + k] = buf[p + k] as number;
    o += n;
  }
  return { value: out, next };
}

export function readComparableString(buf: Uint8Array, pos: number): { value: string; next: number } {
  const { len, next } = scan(buf, pos);
  if (len < GROUP) return { value: decodeUtf8(buf, pos, pos + len), next };
  const { value } = readComparableBytes(buf, pos);
  return { value: decodeUtf8(value, 0, value.length), next };
}
