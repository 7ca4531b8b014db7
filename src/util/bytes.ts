/** Byte helpers shared by every layer. All functions treat inputs as read-only. */
import { decodeSurrogateEscape, encodeSurrogateEscape } from './surrogate-escape.js';

/** Lexicographic (memcmp) comparison: negative, zero or positive. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Ranges this long or longer are copied with one TypedArray.set (a call), shorter ones byte by byte. */
const COPY_WITH_SET = 32;

/** Copies src[from, from + length) into `out` at `at`; returns at + length. */
export function copyRange(src: Uint8Array, from: number, length: number, out: Uint8Array, at: number): number {
  if (length >= COPY_WITH_SET) out.set(src.subarray(from, from + length), at);
  else for (let i = 0; i < length; i++) out[at + i] = src[from + i] as number;
  return at + length;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/**
 * The smallest key greater than every key that starts with `prefix` (TiDB's PrefixNext):
 * increments the last byte that is not 0xFF and drops what follows. An all-0xFF prefix has no
 * such key; it returns the prefix followed by 0xFF bytes, which callers treat as "end of space".
 */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if (prefix[i] !== 0xff) {
      const out = prefix.slice(0, i + 1);
      out[i] = (out[i] as number) + 1;
      return out;
    }
  }
  const out = new Uint8Array(prefix.length + 8).fill(0xff);
  out.set(prefix, 0);
  return out;
}

/** The key immediately after `key` in byte order: key + 0x00. */
export function keyNext(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 1);
  out.set(key, 0);
  return out;
}

export function toHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/** UTF-8 bytes of `s`; bytes escaped by `utf8Decode` (U+DC80..U+DCFF) come back as themselves. */
export function utf8Encode(s: string): Uint8Array {
  return encodeSurrogateEscape(s);
}

/** UTF-8 text of `b`; each byte of an invalid sequence becomes U+DC80+byte (surrogate-escape.ts). */
export function utf8Decode(b: Uint8Array): string {
  return decodeSurrogateEscape(b);
}
