/**
 * UTF-8 helpers for the hot path: ASCII is copied with a plain loop, anything else goes through
 * TextEncoder.encodeInto / TextDecoder.
 */
import type { ByteWriter } from './byte-writer.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
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
  if (i < n) {
    const r = encoder.encodeInto(i === 0 ? s : s.slice(i), buf.subarray(p));
    p += r.written;
  }
  w.pos = p;
}

/** Decodes `buf[start..end)`. */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= SHORT) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = buf[i] as number;
      if (c >= 0x80) return decoder.decode(buf.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decoder.decode(buf.subarray(start, end));
}
