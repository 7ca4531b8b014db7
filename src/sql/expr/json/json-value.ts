/**
 * The in-memory JSON value model (MySQL 8.0's JSON DOM, reduced to what ShaleDB keeps):
 *
 * | JSON type (JSON_TYPE)          | JS representation                   |
 * |--------------------------------|-------------------------------------|
 * | null                           | `null`                              |
 * | BOOLEAN                        | `boolean`                           |
 * | INTEGER / UNSIGNED INTEGER     | `bigint` (int64 / above int64: uint64) |
 * | DOUBLE                         | `number`                            |
 * | DECIMAL                        | `Decimal`                           |
 * | STRING                         | `string`                            |
 * | ARRAY                          | `JsonValue[]`                       |
 * | OBJECT                         | `Map<string, JsonValue>`            |
 *
 * MySQL's opaque and temporal JSON scalars are kept as strings (their text form), so
 * JSON_TYPE reports STRING for them. Documents are owned by whoever parsed them: the editing
 * functions mutate their own parsed copy.
 */
import { Decimal } from '../../../types/index.js';
import { compareStrings } from '../compare.js';

export type JsonValue = null | boolean | bigint | number | Decimal | string | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

export const INT64_MAX = (1n << 63n) - 1n;
export const UINT64_MAX = (1n << 64n) - 1n;

export function isJsonObject(v: JsonValue): v is JsonObject {
  return v instanceof Map;
}

export function isJsonArray(v: JsonValue): v is JsonValue[] {
  return Array.isArray(v);
}

/** UTF-8 byte length of a JS string. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** MySQL's key order in a stored object: shorter keys (in UTF-8 bytes) first, then by bytes. */
export function compareKeys(a: string, b: string): number {
  const d = utf8Length(a) - utf8Length(b);
  return d !== 0 ? d : compareStrings(a, b);
}

/** The object's keys in MySQL's stored order. */
export function sortedKeys(o: JsonObject): string[] {
  return [...o.keys()].sort(compareKeys);
}

/** JSON_TYPE's name for a value. */
export function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'bigint') return v > INT64_MAX ? 'UNSIGNED INTEGER' : 'INTEGER';
  if (typeof v === 'number') return 'DOUBLE';
  if (v instanceof Decimal) return 'DECIMAL';
  if (typeof v === 'string') return 'STRING';
  return Array.isArray(v) ? 'ARRAY' : 'OBJECT';
}

/** A deep copy (documents handed to an editing function must not share nodes). */
export function cloneJson(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(cloneJson);
  if (v instanceof Map) {
    const out: JsonObject = new Map();
    for (const [k, x] of v) out.set(k, cloneJson(x));
    return out;
  }
  return v;
}

function isNumber(v: JsonValue): v is bigint | number | Decimal {
  return typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal;
}

function numericCompare(a: bigint | number | Decimal, b: bigint | number | Decimal): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = a instanceof Decimal ? a : new Decimal(typeof a === 'bigint' ? a.toString() : a);
  const y = b instanceof Decimal ? b : new Decimal(typeof b === 'bigint' ? b.toString() : b);
  return x.comparedTo(y);
}

/** Rank of each JSON type in MySQL's JSON ordering (higher sorts later). */
function typeRank(v: JsonValue): number {
  if (v === null) return 0;
  if (isNumber(v)) return 1;
  if (typeof v === 'string') return 2;
  if (v instanceof Map) return 3;
  if (Array.isArray(v)) return 4;
  return 5; // boolean
}

/**
 * MySQL's JSON comparison (8.0 manual, "Comparison and Ordering of JSON Values"): numbers by
 * value across INTEGER/DOUBLE/DECIMAL, strings by utf8mb4_bin, arrays element-wise then by
 * length, objects equal when they hold the same keys with equal values (otherwise ordered by
 * size, then key by key), false < true; values of different types order by type precedence.
 */
export function compareJson(a: JsonValue, b: JsonValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (isNumber(a) && isNumber(b)) return numericCompare(a, b);
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) return compareArrays(a, b);
  if (a instanceof Map && b instanceof Map) return compareObjects(a, b);
  return 0;
}

function compareArrays(a: readonly JsonValue[], b: readonly JsonValue[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareJson(a[i] as JsonValue, b[i] as JsonValue);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function compareObjects(a: JsonObject, b: JsonObject): number {
  if (a.size !== b.size) return a.size - b.size;
  const ka = sortedKeys(a);
  const kb = sortedKeys(b);
  for (let i = 0; i < ka.length; i++) {
    const c = compareKeys(ka[i] as string, kb[i] as string);
    if (c !== 0) return c;
    const d = compareJson(a.get(ka[i] as string) as JsonValue, b.get(kb[i] as string) as JsonValue);
    if (d !== 0) return d;
  }
  return 0;
}

export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  return compareJson(a, b) === 0;
}
