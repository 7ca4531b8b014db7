/**
 * The character sets and collations the server admits to: session variables, SHOW COLLATION /
 * SHOW CHARACTER SET and the handshake collation id. The collations themselves (ids, pad
 * attributes, how they compare) live in the registry `types/collation.ts`.
 */
import { COLLATIONS as REGISTRY } from '../../types/index.js';

export interface CollationInfo {
  readonly name: string;
  readonly charset: string;
  readonly id: number;
  readonly isDefault: boolean;
  readonly padSpace: boolean;
}

export interface CharsetInfo {
  readonly name: string;
  readonly description: string;
  readonly defaultCollation: string;
  readonly maxLen: number;
}

function coll(name: string, id: number, isDefault = false, padSpace = true): CollationInfo {
  return { name, charset: name === 'binary' ? 'binary' : name.slice(0, name.indexOf('_')), id, isDefault, padSpace };
}

export const COLLATIONS: readonly CollationInfo[] = REGISTRY.map((c) => coll(c.name, c.id, c.isDefault, c.padAttribute === 'PAD SPACE'));

export const CHARSETS: readonly CharsetInfo[] = [
  { name: 'ascii', description: 'US ASCII', defaultCollation: 'ascii_general_ci', maxLen: 1 },
  { name: 'binary', description: 'Binary pseudo charset', defaultCollation: 'binary', maxLen: 1 },
  { name: 'latin1', description: 'cp1252 West European', defaultCollation: 'latin1_swedish_ci', maxLen: 1 },
  { name: 'utf8mb3', description: 'UTF-8 Unicode', defaultCollation: 'utf8mb3_general_ci', maxLen: 3 },
  { name: 'utf8mb4', description: 'UTF-8 Unicode', defaultCollation: 'utf8mb4_0900_ai_ci', maxLen: 4 },
];

const byId = new Map(COLLATIONS.map((c) => [c.id, c]));
const byName = new Map(COLLATIONS.map((c) => [c.name, c]));
const charsets = new Map(CHARSETS.map((c) => [c.name, c]));

/** `utf8` is MySQL 8's alias of `utf8mb3`; names are case-insensitive. */
export function canonicalCharset(name: string): string | undefined {
  const lower = name.toLowerCase();
  const canonical = lower === 'utf8' ? 'utf8mb3' : lower;
  return charsets.has(canonical) ? canonical : undefined;
}

export function canonicalCollation(name: string): CollationInfo | undefined {
  const lower = name.toLowerCase().replace(/^utf8_/, 'utf8mb3_');
  return byName.get(lower);
}

export function defaultCollationOf(charset: string): string {
  return charsets.get(charset)?.defaultCollation ?? 'utf8mb4_0900_ai_ci';
}

/** Handshake collation id -> collation (unknown ids fall back to utf8mb4_0900_ai_ci). */
export function collationForId(id: number): CollationInfo {
  return byId.get(id) ?? coll('utf8mb4_0900_ai_ci', 255, true, false);
}

/** The charset a collation belongs to, e.g. utf8mb4_bin -> utf8mb4. */
export function charsetOfCollation(collation: string): string {
  return canonicalCollation(collation)?.charset ?? collation.slice(0, Math.max(0, collation.indexOf('_')));
}
