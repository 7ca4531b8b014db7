/**
 * Text that carries bytes which are not valid UTF-8 (escaped as U+DC80..U+DCFF by
 * util/surrogate-escape.ts) cannot be stored in a utf8mb4 column: MySQL's strict mode fails with
 * 1366 "Incorrect string value: '\xFF\xFE' ..."; otherwise each bad byte becomes '?' with a warning.
 */
import { encodeSurrogateEscape, firstEscapedByte } from '../../util/index.js';

/** MySQL's convert_to_printable(..., 6): printable ASCII as is, other bytes as \xHH, then "...". */
export function printableBytes(bytes: Uint8Array, max = 6): string {
  let out = '';
  const n = Math.min(bytes.length, max);
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    out += b >= 0x20 && b <= 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return bytes.length > max ? `${out}...` : out;
}

/** The 1366 value text for `s` (from its first invalid byte on), or null when `s` is valid. */
export function invalidTextValue(s: string): string | null {
  const at = firstEscapedByte(s);
  if (at < 0) return null;
  return printableBytes(encodeSurrogateEscape(s.slice(at)));
}

/** `s` with each escaped (invalid) byte replaced by '?'. */
export function replaceInvalidBytes(s: string): string {
  return s.replace(/(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g, '?');
}
