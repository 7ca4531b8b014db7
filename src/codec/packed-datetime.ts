/**
 * DateTime <-> packed uint64 (the value of `DateTime.toPacked()`) using only exact double
 * arithmetic on 32-bit halves, so the hot path needs no BigInt:
 *   packed = (((year * 13 + month) * 32 + day) << 17 | (hour << 12 | minute << 6 | second)) * 10^6 + micro
 * Keys store it as uint64 big-endian (flag 4), rows as uint64 little-endian.
 *   DATE 2024-01-15: ymd = (2024*13+1)*32+15 = 842031, packed = (842031 << 17) * 10^6
 *     -> 01 88 19 EA D3 80 00 00 (big-endian)
 *
 * frozen: part of the on-disk format.
 */
import { DateTime } from '../types/index.js';

const TWO16 = 65536;
const TWO17 = 131072;
const TWO32 = 4294967296;
const MICRO = 1_000_000;
/** 2^32 mod 10^6 */
const TWO32_MOD_MICRO = 967296;

/** [hi, lo] 32-bit halves of `dt.toPacked()`. */
export function packDateTime(dt: DateTime): [hi: number, lo: number] {
  const ymd = (dt.year * 13 + dt.month) * 32 + dt.day;
  const hms = (dt.hour * 64 + dt.minute) * 64 + dt.second;
  const a = ymd * TWO17 + hms; // < 2^40
  const a1 = Math.floor(a / TWO16);
  const a0 = a - a1 * TWO16;
  const x = a0 * MICRO + dt.micro; // < 2^37
  const y = a1 * MICRO; // < 2^44
  const yHi = Math.floor(y / TWO16);
  const t = (y - yHi * TWO16) * TWO16 + x; // < 2^38
  const tHi = Math.floor(t / TWO32);
  return [yHi + tHi, t - tHi * TWO32];
}

/** Inverse of packDateTime. */
export function unpackDateTime(hi: number, lo: number, kind: 'date' | 'datetime', fsp: number): DateTime {
  const micro = (hi * TWO32_MOD_MICRO + lo) % MICRO;
  const rh = hi % MICRO;
  const m = rh * TWO32 + lo; // < 10^6 * 2^32 < 2^53
  const rest = ((hi - rh) / MICRO) * TWO32 + (m - (m % MICRO)) / MICRO;
  const hms = rest % TWO17;
  const ymd = (rest - hms) / TWO17;
  const day = ymd % 32;
  const ym = (ymd - day) / 32;
  const month = ym % 13;
  const year = (ym - month) / 13;
  if (kind === 'date') return new DateTime('date', year, month, day, 0, 0, 0, 0, 0);
  return new DateTime('datetime', year, month, day, hms >> 12, (hms >> 6) & 63, hms & 63, micro, fsp);
}
