/**
 * ASCII fast paths of the `_ci` collations (collation.ts). For an ASCII string every weight
 * function of collation.ts maps each character on its own to one character below U+0080
 * (`table[code]`), so:
 *
 * - `asciiWeight` builds that weight through a byte scratch buffer (no string concatenation,
 *   which made every weight a 120-piece rope that charCodeAt then had to flatten);
 * - `asciiCompare` compares two strings under the table without building weights. Position i
 *   of a weight is `table[s[i]]` while every character before i is ASCII (NFKD, mark removal
 *   and case folding never change or move an ASCII character), so a difference found inside an
 *   ASCII prefix decides the order. It answers undefined (the caller compares full weights)
 *   when a non-ASCII character is met before the decision.
 * - `asciiSortPrefix` packs the first weights of an ASCII string into one number, so a sort
 *   compares most pairs with one number comparison.
 */

let scratch = Buffer.allocUnsafe(256);
/** Longer strings get a one-off buffer, so one huge value does not pin a huge scratch. */
const MAX_SCRATCH = 64 * 1024;

/** True when every UTF-16 unit of `s` is below 0x80. */
export function isAsciiString(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** `s` mapped through `table` character by character, or null when `s` is not all ASCII. */
export function asciiWeight(s: string, table: Uint8Array): string | null {
  const n = s.length;
  if (n === 0) return '';
  if (scratch.length < n && n <= MAX_SCRATCH) scratch = Buffer.allocUnsafe(Math.min(MAX_SCRATCH, Math.max(n, scratch.length * 2)));
  const buf = n <= scratch.length ? scratch : Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return null;
    buf[i] = table[c] as number;
  }
  return buf.toString('latin1', 0, n);
}

/** Length of `s` without trailing spaces when `padSpace`, else its length. */
export function effectiveLength(s: string, padSpace: boolean): number {
  let n = s.length;
  if (padSpace) while (n > 0 && s.charCodeAt(n - 1) === 0x20) n--;
  return n;
}

/**
 * Sign of weight(a) vs weight(b) (-1, 0, 1) when it can be decided on ASCII characters alone,
 * else undefined. `padSpace`: trailing spaces are ignored (PAD SPACE collations).
 */
export function asciiCompare(a: string, b: string, table: Uint8Array, padSpace: boolean): number | undefined {
  const na = effectiveLength(a, padSpace);
  const nb = effectiveLength(b, padSpace);
  const n = na < nb ? na : nb;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if ((x | y) >= 0x80) return undefined;
    if (x === y) continue;
    const d = (table[x] as number) - (table[y] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  // Equal up to the shorter one: the longer one's rest could weigh nothing only if non-ASCII.
  const longer = na > nb ? a : b;
  for (let i = n; i < (na > nb ? na : nb); i++) if (longer.charCodeAt(i) >= 0x80) return undefined;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** Weights packed by asciiSortPrefix: 6 positions of 8 bits stay below 2^53 (exact in a double). */
const SORT_PREFIX_CHARS = 6;

/**
 * The first SORT_PREFIX_CHARS weights of `s` (`table[c] + 1` each, 0 past its end; trailing
 * spaces dropped first when `padSpace`) as one number, or NaN when a non-ASCII character comes
 * first. Different prefixes order two strings as asciiCompare does (a shorter string is a prefix
 * of the longer, and 0 sorts below every weight); equal prefixes decide nothing.
 */
export function asciiSortPrefix(s: string, table: Uint8Array, padSpace: boolean): number {
  const n = effectiveLength(s, padSpace);
  let acc = 0;
  for (let i = 0; i < SORT_PREFIX_CHARS; i++) {
    let w = 0;
    if (i < n) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return Number.NaN;
      w = (table[c] as number) + 1;
    }
    acc = acc * 256 + w;
  }
  return acc;
}
