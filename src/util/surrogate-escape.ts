/**
 * Binary-safe text, Python "surrogateescape" style. Statement text and byte strings are decoded
 * as UTF-8 where valid; each byte of an invalid sequence becomes the lone surrogate U+DC80+byte
 * (U+DC80..U+DCFF), so a JS string carries arbitrary bytes. Encoding maps those surrogates back
 * to the original byte, so decode -> encode is the identity on every byte sequence.
 * Valid UTF-8 (nearly every statement) takes the native decoder/encoder only.
 */

const encoder = new TextEncoder();
/** ignoreBOM: a leading U+FEFF is text, not a marker to strip. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const REPLACEMENT = '\uFFFD';
const ESC_LO = 0xdc80;
const ESC_HI = 0xdcff;

interface WellFormed {
  isWellFormed(): boolean;
}

/** True when `s` holds no lone surrogate (so no escaped byte). Native; O(1) for Latin-1 strings. */
export function isWellFormedText(s: string): boolean {
  return (s as unknown as WellFormed).isWellFormed();
}

/**
 * Decodes `buf[start..end)` as UTF-8, escaping the bytes of invalid sequences. The native decoder
 * turns them into U+FFFD, so only a result holding one is decoded again byte by byte (which also
 * keeps a stored U+FFFD as itself).
 */
export function decodeSurrogateEscape(buf: Uint8Array, start = 0, end = buf.length): string {
  const s = utf8Slice !== undefined
    ? utf8Slice.call(buf, start, end)
    : decoder.decode(start === 0 && end === buf.length ? buf : buf.subarray(start, end));
  if (s.indexOf(REPLACEMENT) < 0) return s;
  return slowDecode(buf, start, end);
}

type SliceFn = (this: Uint8Array, start: number, end: number) => string;
/**
 * Buffer.prototype.utf8Slice, what Buffer#toString('utf8') calls: it takes any Uint8Array at
 * offsets, so a plain Uint8Array (a scan page, a store's read buffer) needs no subarray view for
 * TextDecoder. An untyped Node internal; TextDecoder where it is absent.
 */
const utf8Slice: SliceFn | undefined = (() => {
  const f: unknown = (Buffer.prototype as unknown as Record<string, unknown>)['utf8Slice'];
  return typeof f === 'function' ? (f as SliceFn) : undefined;
})();

/** Length of the valid UTF-8 sequence at `i` (1-4), or 0 when the byte there starts none. */
function sequenceLength(buf: Uint8Array, i: number, end: number): number {
  const c = buf[i] as number;
  if (c < 0x80) return 1;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c === 0xe0) lo = 0xa0;
    else if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c === 0xf0) lo = 0x90;
    else if (c === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + n > end) return 0;
  const c1 = buf[i + 1] as number;
  if (c1 < lo || c1 > hi) return 0;
  for (let k = 2; k < n; k++) {
    const ck = buf[i + k] as number;
    if (ck < 0x80 || ck > 0xbf) return 0;
  }
  return n;
}

function slowDecode(buf: Uint8Array, start: number, end: number): string {
  const units = new Uint16Array(end - start);
  let u = 0;
  let i = start;
  while (i < end) {
    const n = sequenceLength(buf, i, end);
    const c = buf[i] as number;
    if (n === 0) {
      units[u++] = 0xdc00 + c;
      i++;
      continue;
    }
    let cp: number;
    if (n === 1) cp = c;
    else if (n === 2) cp = ((c & 0x1f) << 6) | ((buf[i + 1] as number) & 0x3f);
    else if (n === 3) cp = ((c & 0x0f) << 12) | (((buf[i + 1] as number) & 0x3f) << 6) | ((buf[i + 2] as number) & 0x3f);
    else {
      cp = ((c & 0x07) << 18) | (((buf[i + 1] as number) & 0x3f) << 12)
        | (((buf[i + 2] as number) & 0x3f) << 6) | ((buf[i + 3] as number) & 0x3f);
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[u++] = 0xd800 + (cp >> 10);
      units[u++] = 0xdc00 + (cp & 0x3ff);
    } else units[u++] = cp;
    i += n;
  }
  return Buffer.from(units.buffer, 0, u * 2).toString('utf16le');
}

/** UTF-8 bytes of `s`, escaped bytes (U+DC80..U+DCFF) written back as themselves. */
export function encodeSurrogateEscape(s: string): Uint8Array {
  if (isWellFormedText(s)) return encoder.encode(s);
  return slowEncode(s);
}

/**
 * Writes `s` into `out` at `pos` (room for 3 bytes per UTF-16 unit is the caller's job); returns
 * the number of bytes written.
 */
export function encodeSurrogateEscapeInto(s: string, out: Uint8Array, pos: number): number {
  if (isWellFormedText(s)) return encoder.encodeInto(s, out.subarray(pos)).written;
  let p = pos;
  let runStart = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (c < ESC_LO || c > ESC_HI) continue; // other lone surrogates: U+FFFD like TextEncoder
    if (i > runStart) p += encoder.encodeInto(s.slice(runStart, i), out.subarray(p)).written;
    out[p++] = c - 0xdc00;
    runStart = i + 1;
  }
  if (runStart < n) p += encoder.encodeInto(runStart === 0 ? s : s.slice(runStart), out.subarray(p)).written;
  return p - pos;
}

function slowEncode(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  const n = encodeSurrogateEscapeInto(s, out, 0);
  return out.slice(0, n);
}

/** True when `s` carries an escaped byte, i.e. was decoded from invalid UTF-8. */
export function hasEscapedBytes(s: string): boolean {
  if (isWellFormedText(s)) return false;
  return firstEscapedByte(s) >= 0;
}

/** Index of the first escaped byte (U+DC80..U+DCFF not part of a pair) in `s`, or -1. */
export function firstEscapedByte(s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (c >= ESC_LO && c <= ESC_HI) return i;
  }
  return -1;
}
