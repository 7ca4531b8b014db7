/**
 * UTF-8 helpers for the hot path: short ASCII is copied with a plain loop, longer text goes
 * through TextEncoder.encodeInto / the surrogate-escape decoder's native path. Bytes escaped as
 * U+DC80..U+DCFF (util/surrogate-escape.ts) are written back as themselves.
 */
import { decodeSurrogateEscape, encodeSurrogateEscapeInto } from '../util/index.js';
import type { ByteWriter } from './byte-writer.js';

const SHORT = 32;
const encoder = new TextEncoder();

/** Appends the UTF-8 bytes of `s` (reserves up to 3 bytes per UTF-16 unit). */
export function writeUtf8(w: ByteWriter, s: string): void {
  const n = s.length;
  w.ensure(n * 3);
  const buf = w.buf;
  let p = w.pos;
  // Long strings: the native encoder; it wrote exactly n bytes only if every unit was ASCII
  // (anything else takes 2+ bytes), otherwise the loop below redoes it (escapes included).
  if (n > SHORT && encoder.encodeInto(s, buf.subarray(p)).written === n) {
    w.pos = p + n;
    return;
  }
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    buf[p++] = c;
  }
  if (i < n) p += encodeSurrogateEscapeInto(i === 0 ? s : s.slice(i), buf, p);
  w.pos = p;
}

/** Decodes `buf[start..end)` (invalid bytes escaped, see util/surrogate-escape.ts). */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= SHORT) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = buf[i] as number;
      if (c >= 0x80) return decodeSurrogateEscape(buf, start, end);
      s += String.fromCharCode(c);
    }
    return s;
  }
  // Longer text: the escaping decoder's native path (Node's UTF-8 slice at offsets, no view).
  return decodeSurrogateEscape(buf, start, end);
}
