/**
 * The collation registry: every collation the server knows, with MySQL 8.0's ids and pad
 * attributes, and how it compares strings. A collation's `weight(s)` is a sort key: two strings
 * compare under the collation exactly as their weights compare in code-point order, so index
 * keys of a column store the UTF-8 bytes of the weight (memcomparable) and equal-weight strings
 * collide in UNIQUE indexes.
 *
 * - `*_bin`, `binary`: the string itself (code-point = UTF-8 byte order). ShaleDB keeps trailing
 *   spaces significant under the PAD SPACE `*_bin` collations (MySQL ignores them), so stored
 *   index keys stay the raw bytes.
 * - `utf8mb4_0900_ai_ci` (NO PAD) and `*_unicode_*ci` (PAD SPACE): an approximation of the UCA
 *   primary level: NFKD, combining marks dropped, full case folding ('ß' = 'ss'), ASCII
 *   punctuation/digits/letters in UCA order (`_-,;:!?.'"()[]{}@*\/&#%`^+<=>|~$` < digits < letters).
 * - `utf8mb4_0900_as_ci`: the same with accents kept; `*_as_cs` / `*_cs` compare like `*_bin`.
 * - `*_general_ci`, `latin1_swedish_ci`, `ascii_general_ci` (PAD SPACE): per character, the
 *   base letter upper-cased (no expansions: 'ß' = 's'); characters beyond the BMP all weigh U+FFFD.
 */
import { asciiCompare, asciiSortPrefix, asciiWeight } from './collation-ascii.js';

export type PadAttribute = 'PAD SPACE' | 'NO PAD';

export interface Collation {
  readonly name: string;
  readonly charset: string;
  readonly id: number;
  /** The default collation of its charset (SHOW COLLATION `Default`). */
  readonly isDefault: boolean;
  readonly padAttribute: PadAttribute;
  /** Compares by bytes (code points): `*_bin`, `binary`. Such strings are their own weights. */
  readonly binary: boolean;
  /** The sort key of `s` (see the file header). */
  weight(s: string): string;
  /** Negative, zero or positive. */
  compare(a: string, b: string): number;
  /**
   * compare()'s answer when it is cheap to get (both strings ASCII up to the first difference),
   * else undefined: the caller compares weights it may have cached. Binary collations always answer.
   */
  quickCompare(a: string, b: string): number | undefined;
  /**
   * A number summarizing the start of `s`'s weight: when two strings' prefixes differ (and are
   * not NaN) they order as compare() orders the strings; equal or NaN prefixes decide nothing.
   * NaN for binary collations and for strings that start non-ASCII.
   */
  sortPrefix(s: string): number;
  /** Case/accent folding of one string for LIKE that keeps its character count. */
  likeFold(s: string): string;
  /**
   * Non-binary collations: the weight of each ASCII code (0..127), itself ASCII. An all-ASCII
   * string's weight is these bytes, one per character, after PAD SPACE trimmed its trailing
   * spaces (so an index key can be written without making the weight string). Undefined for
   * binary collations.
   */
  readonly asciiWeights?: Uint8Array;
}

/** MySQL 8.0's default collation of utf8mb4 (new tables, literals, collation_connection). */
export const DEFAULT_COLLATION_NAME = 'utf8mb4_0900_ai_ci';

type Family = 'bin' | 'uca' | 'uca_as' | 'general';

/** Code-point order of two JS strings (= UTF-8 byte order): surrogates sort after U+E000..U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function fixup(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return c + 0x2000;
  if (c >= 0xe000) return c - 0x800;
  return c;
}

// --- UCA approximation ---------------------------------------------------------------------

/** ASCII in UCA primary order (controls first, unchanged); letters appear once, lower-case. */
const UCA_ASCII_ORDER = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz';
/** code (0..127) -> remapped code (< 128) so that code-point order of the remap is UCA order. */
const UCA_ASCII = buildUcaAscii();

function buildUcaAscii(): Uint8Array {
  const map = new Uint8Array(128);
  let next = 0;
  for (let c = 0; c < 32; c++) map[c] = next++;
  map[127] = next++;
  for (const ch of UCA_ASCII_ORDER) map[ch.charCodeAt(0)] = next++;
  for (let c = 65; c <= 90; c++) map[c] = map[c + 32] as number;
  return map;
}

const COMBINING = /\p{M}/gu;

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

function ucaFold(s: string): string {
  if (isAscii(s)) return s;
  return s.normalize('NFKD').replace(COMBINING, '').toUpperCase().toLowerCase();
}

const UCA_ASCII_CHARS: readonly string[] = Array.from(UCA_ASCII, (c) => String.fromCharCode(c));

/** Accent-sensitive variant (`_as_ci`): combining marks stay and sort after their base letter. */
function ucaAsWeight(s: string): string {
  return ucaWeight(s, true);
}

function ucaWeight(s: string, keepAccents = false): string {
  const ascii = asciiWeight(s, UCA_ASCII);
  if (ascii !== null) return ascii;
  const folded = keepAccents && !isAscii(s) ? s.normalize('NFKD').toUpperCase().toLowerCase() : ucaFold(s);
  let out = '';
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    out += c < 0x80 ? (UCA_ASCII_CHARS[c] as string) : (folded[i] as string);
  }
  return out;
}

// --- general_ci ------------------------------------------------------------------------------

const generalCache = new Map<number, string>();

const GENERAL_ASCII: readonly string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c >= 97 && c <= 122 ? c - 32 : c));
/** code (0..127) -> its general_ci weight (upper case), for asciiCompare. */
const GENERAL_TABLE = Uint8Array.from({ length: 128 }, (_, c) => (c >= 97 && c <= 122 ? c - 32 : c));

function generalChar(code: number): string {
  if (code < 0x80) return GENERAL_ASCII[code] as string;
  if (code > 0xffff) return '\ufffd';
  let w = generalCache.get(code);
  if (w === undefined) {
    const ch = String.fromCharCode(code);
    // The base character of the decomposition, unless that lies outside the BMP (U+FACF -> U+2284A):
    // a weight character is one UTF-16 unit, never half a surrogate pair.
    const first = ch.normalize('NFD').codePointAt(0) ?? code;
    const base = ch === '\u00df' ? 's' : first > 0xffff ? ch : String.fromCharCode(first);
    const up = base.toUpperCase();
    w = up.length === 1 ? up : base;
    generalCache.set(code, w);
  }
  return w;
}

function generalWeight(s: string): string {
  if (isAscii(s)) return s.toUpperCase();
  let out = '';
  for (const ch of s) out += generalChar(ch.codePointAt(0) as number);
  return out;
}

// --- LIKE folding (one character stays one character) -----------------------------------------

const likeCache = new Map<string, string>();

function likeFoldChar(ch: string): string {
  let f = likeCache.get(ch);
  if (f === undefined) {
    const base = ch.normalize('NFD').replace(COMBINING, '');
    const lower = base.toLowerCase();
    f = Array.from(lower).length === 1 ? lower : ch.toLowerCase();
    if (Array.from(f).length !== 1) f = ch;
    likeCache.set(ch, f);
  }
  return f;
}

function ciLikeFold(s: string): string {
  if (isAscii(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) out += ch.charCodeAt(0) < 0x80 ? ch.toLowerCase() : likeFoldChar(ch);
  return out;
}

// --- registry ----------------------------------------------------------------------------------

function trimTrailingSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--;
  return end === s.length ? s : s.slice(0, end);
}

const identity = (s: string): string => s;
const noPrefix = (): number => Number.NaN;

function make(name: string, id: number, family: Family, opts: { isDefault?: boolean; pad?: PadAttribute } = {}): Collation {
  const charset = name === 'binary' ? 'binary' : name.slice(0, name.indexOf('_'));
  const padAttribute = opts.pad ?? 'PAD SPACE';
  const isDefault = opts.isDefault ?? false;
  if (family === 'bin') {
    const compare = compareCodePoints;
    return { name, charset, id, isDefault, padAttribute, binary: true, weight: identity, compare, quickCompare: compare, sortPrefix: noPrefix, likeFold: identity };
  }
  const base = family === 'uca' ? (s: string): string => ucaWeight(s) : family === 'uca_as' ? ucaAsWeight : generalWeight;
  const weight = padAttribute === 'PAD SPACE' ? (s: string): string => base(trimTrailingSpaces(s)) : base;
  const table = family === 'general' ? GENERAL_TABLE : UCA_ASCII;
  const pad = padAttribute === 'PAD SPACE';
  const quickCompare = (a: string, b: string): number | undefined => (a === b ? 0 : asciiCompare(a, b, table, pad));
  const compare = (a: string, b: string): number => quickCompare(a, b) ?? compareCodePoints(weight(a), weight(b));
  const sortPrefix = (s: string): number => asciiSortPrefix(s, table, pad);
  return { name, charset, id, isDefault, padAttribute, binary: false, weight, compare, quickCompare, sortPrefix, likeFold: ciLikeFold, asciiWeights: table };
}

export const COLLATIONS: readonly Collation[] = [
  make('ascii_general_ci', 11, 'general', { isDefault: true }),
  make('ascii_bin', 65, 'bin'),
  make('binary', 63, 'bin', { isDefault: true, pad: 'NO PAD' }),
  make('latin1_swedish_ci', 8, 'general', { isDefault: true }),
  make('latin1_general_ci', 48, 'general'),
  make('latin1_general_cs', 49, 'bin'),
  make('latin1_bin', 47, 'bin'),
  make('utf8mb3_general_ci', 33, 'general', { isDefault: true }),
  make('utf8mb3_bin', 83, 'bin'),
  make('utf8mb3_unicode_ci', 192, 'uca'),
  make('utf8mb3_unicode_520_ci', 214, 'uca'),
  make('utf8mb4_general_ci', 45, 'general'),
  make('utf8mb4_bin', 46, 'bin'),
  make('utf8mb4_unicode_ci', 224, 'uca'),
  make('utf8mb4_unicode_520_ci', 246, 'uca'),
  make('utf8mb4_0900_ai_ci', 255, 'uca', { isDefault: true, pad: 'NO PAD' }),
  make('utf8mb4_0900_as_ci', 305, 'uca_as', { pad: 'NO PAD' }),
  make('utf8mb4_0900_as_cs', 278, 'bin', { pad: 'NO PAD' }),
  make('utf8mb4_0900_bin', 309, 'bin', { pad: 'NO PAD' }),
];

const byName = new Map(COLLATIONS.map((c) => [c.name, c]));
const byId = new Map(COLLATIONS.map((c) => [c.id, c]));

/** The collation named `name` (case-insensitive; `utf8_` is `utf8mb3_`), or undefined. */
export function findCollation(name: string): Collation | undefined {
  const lower = name.toLowerCase();
  return byName.get(lower) ?? byName.get(lower.replace(/^utf8_/, 'utf8mb3_'));
}

export function collationById(id: number): Collation | undefined {
  return byId.get(id);
}

export const BINARY_COLLATION = byName.get('binary') as Collation;
export const DEFAULT_COLLATION_INFO = byName.get(DEFAULT_COLLATION_NAME) as Collation;

/**
 * The collation a stored type names. Unknown names (never accepted by DDL, but tolerated in old
 * metadata) compare by bytes.
 */
export function collationOf(name: string): Collation {
  return byName.get(name) ?? findCollation(name) ?? BINARY_COLLATION;
}

/** The default collation of a charset (`utf8` is `utf8mb3`); undefined for unknown charsets. */
export function charsetDefaultCollation(charset: string): string | undefined {
  const lower = charset.toLowerCase();
  const cs = lower === 'utf8' ? 'utf8mb3' : lower;
  return COLLATIONS.find((c) => c.charset === cs && c.isDefault)?.name;
}
