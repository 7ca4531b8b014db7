/**
 * MySQL binary DECIMAL (`decimal2bin`), shared by keys (after flag 6 + precision + frac bytes)
 * and row values (after precision + frac bytes). For a column DECIMAL(M,D):
 * intg = M - D integer digits and D fraction digits, each side cut into 9-digit words stored in
 * 4 bytes big-endian; a partial word of n digits (the leading one of the integer part, the
 * trailing one of the fraction) takes DIG2BYTES[n] bytes. Then every byte is inverted for a
 * negative value, and the top bit of the first byte is flipped, so for a fixed (M,D) the bytes
 * compare like the numbers.
 *   DECIMAL(14,4)  1234567890.1234 -> 81 0D FB 38 D2 04 D2
 *     (1 -> 01 | 234567890 -> 0D FB 38 D2 | .1234 -> 04 D2; first byte ^ 0x80)
 *   DECIMAL(14,4) -1234567890.1234 -> 7E F2 04 C7 2D FB 2D
 * The value must already be rounded to D fraction digits and fit M - D integer digits.
 *
 * frozen: part of the on-disk format.
 */
import { Decimal } from '../types/index.js';
import type { ByteWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';

const DIG_PER_WORD = 9;
const WORD_SIZE = 4;
const DIG2BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4] as const;
const MAX_PRECISION = 65;
const NONZERO = /[1-9]/;

function dig2bytes(n: number): number {
  return DIG2BYTES[n] as number;
}

export function decimalBinSize(precision: number, frac: number): number {
  const intg = precision - frac;
  return (
    Math.floor(intg / DIG_PER_WORD) * WORD_SIZE +
    dig2bytes(intg % DIG_PER_WORD) +
    Math.floor(frac / DIG_PER_WORD) * WORD_SIZE +
    dig2bytes(frac % DIG_PER_WORD)
  );
}

export function checkPrecision(precision: number, frac: number): void {
  if (!(precision >= 1 && precision <= MAX_PRECISION && frac >= 0 && frac <= precision)) {
    throw corrupt(`bad decimal precision/frac ${precision},${frac}`);
  }
}

/** The integer value of `count` digits of `s` starting at `from`; indexes below 0 read as '0'. */
function digitsAt(s: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) v = v * 10 + (i < 0 ? 0 : s.charCodeAt(i) - 48);
  return v;
}

function writeWord(buf: Uint8Array, p: number, v: number, size: number): void {
  for (let k = size - 1; k >= 0; k--) {
    buf[p + k] = v & 0xff;
    v = Math.floor(v / 256);
  }
}

/** Writes `d` as DECIMAL(precision, frac) binary. */
export function writeDecimalBin(w: ByteWriter, d: Decimal, precision: number, frac: number): void {
  checkPrecision(precision, frac);
  const fixed = d.abs().toFixed(frac);
  const neg = d.isNegative() && NONZERO.test(fixed); // -0.001 at D=2 is +0.00
  const dot = frac > 0 ? fixed.length - frac - 1 : fixed.length;
  const intStr = fixed === '0' || fixed.startsWith('0.') ? '' : fixed.slice(0, dot);
  const intg = precision - frac;
  if (intStr.length > intg) throw new RangeError(`codec: ${d.toString()} does not fit DECIMAL(${precision},${frac})`);
  const size = decimalBinSize(precision, frac);
  w.ensure(size);
  const buf = w.buf;
  const start = w.pos;
  let p = start;
  // integer part, right-aligned: virtual index -pad..-1 are leading zeros
  let idx = intStr.length - intg;
  const lead = intg % DIG_PER_WORD;
  if (lead > 0) {
    writeWord(buf, p, digitsAt(intStr, idx, lead), dig2bytes(lead));
    p += dig2bytes(lead);
    idx += lead;
  }
  for (; idx < intStr.length; idx += DIG_PER_WORD, p += WORD_SIZE) writeWord(buf, p, digitsAt(intStr, idx, DIG_PER_WORD), WORD_SIZE);
  const fracStart = dot + 1;
  let f = 0;
  for (; f + DIG_PER_WORD <= frac; f += DIG_PER_WORD, p += WORD_SIZE) writeWord(buf, p, digitsAt(fixed, fracStart + f, DIG_PER_WORD), WORD_SIZE);
  const trail = frac - f;
  if (trail > 0) {
    writeWord(buf, p, digitsAt(fixed, fracStart + f, trail), dig2bytes(trail));
    p += dig2bytes(trail);
  }
  if (neg) for (let i = start; i < p; i++) buf[i] = ~(buf[i] as number) & 0xff;
  buf[start] = (buf[start] as number) ^ 0x80;
  w.pos = p;
}

function readWord(buf: Uint8Array, p: number, size: number, mask: number, flipFirst: boolean): number {
  let v = 0;
  for (let k = 0; k < size; k++) {
    let b = (buf[p + k] as number) ^ mask;
    if (k === 0 && flipFirst) b ^= 0x80;
    v = v * 256 + b;
  }
  return v;
}

/** Reads a DECIMAL(precision, frac) binary at `pos`. */
export function readDecimalBin(buf: Uint8Array, pos: number, precision: number, frac: number): { value: Decimal; next: number } {
  checkPrecision(precision, frac);
  const size = decimalBinSize(precision, frac);
  if (pos + size > buf.length) throw corrupt('truncated decimal');
  const neg = ((buf[pos] as number) & 0x80) === 0;
  const mask = neg ? 0xff : 0;
  const intg = precision - frac;
  let p = pos;
  let intStr = '';
  const lead = intg % DIG_PER_WORD;
  if (lead > 0) {
    intStr = String(readWord(buf, p, dig2bytes(lead), mask, p === pos));
    p += dig2bytes(lead);
  }
  for (let i = lead; i < intg; i += DIG_PER_WORD, p += WORD_SIZE) {
    const word = String(readWord(buf, p, WORD_SIZE, mask, p === pos));
    intStr = intStr === '' || intStr === '0' ? word : intStr + word.padStart(DIG_PER_WORD, '0');
  }
  let fracStr = '';
  let f = 0;
  for (; f + DIG_PER_WORD <= frac; f += DIG_PER_WORD, p += WORD_SIZE) {
    fracStr += String(readWord(buf, p, WORD_SIZE, mask, p === pos)).padStart(DIG_PER_WORD, '0');
  }
  const trail = frac - f;
  if (trail > 0) {
    fracStr += String(readWord(buf, p, dig2bytes(trail), mask, p === pos)).padStart(trail, '0');
    p += dig2bytes(trail);
  }
  const text = (neg ? '-' : '') + (intStr === '' ? '0' : intStr) + (fracStr === '' ? '' : '.' + fracStr);
  return { value: new Decimal(text), next: p };
}
