/**
 * UTF-8 helpers for the hot path: ASCII is copied with a plain loop, anything else goes through
 * TextEncoder.encodeInto / TextDecoder. Bytes escaped as U+DC80..U+DCFF (util/surrogate-escape.ts)
 * are written back as themselves.
 */
import { decodeSurrogateEscape, encodeSurrogateEscapeInto } from '../util/index.js';
import type { ByteWriter } from './byte-writer.js';

const SHORT = 32;

/** Appends the UTF-8 bytes of `s` (reserves up to 3 bytes per UTF-16 unit). */
export function writeUtf8(w: ByteWriter, s: string): void {
  const n = s.length;
  w.ensure(n * 3);
  const buf = w.buf;
  let p = w.pos;
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
  return decodeSurrogateEscape(buf, start, end);
}
