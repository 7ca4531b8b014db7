/**
 * JSON functions that read documents: JSON_EXTRACT (and `->` / `->>`), JSON_UNQUOTE,
 * JSON_QUOTE, JSON_OBJECT, JSON_ARRAY, JSON_CONTAINS, JSON_CONTAINS_PATH, JSON_KEYS,
 * JSON_LENGTH, JSON_DEPTH, JSON_TYPE, JSON_VALID, JSON_OVERLAPS.
 * Function names in messages are lower case as MySQL prints them (`json_extract`).
 */
import type { Value } from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import {
  docArg, findAll, isValidJson, jsonContains, jsonEquals, jsonResult, jsonTypeName, parseDocText, pathArg, prettyJson, quoteJsonString,
  sortedKeys, valueToJson, type JsonObject, type JsonPath, type JsonValue,
} from '../json/index.js';
import { bigintType, textType, varcharType } from '../result-types.js';
import { valueToString } from '../value-to-string.js';
import type { FunctionTable } from './function-def.js';
import { JSON_TYPE, jsonFn, kindOf, oneOrAll, type JsonCall } from './json-args.js';

const BOOL = bigintType(1);

function doc(args: readonly Value[], call: JsonCall, i: number, fn: string): JsonValue | undefined {
  return docArg(args[i] ?? null, kindOf(call, i), i + 1, fn);
}

function paths(args: readonly Value[], call: JsonCall, from: number, forbidWild: boolean): JsonPath[] | undefined {
  const out: JsonPath[] = [];
  for (let i = from; i < args.length; i++) {
    const p = pathArg(args[i] ?? null, call.paths, forbidWild);
    if (p === undefined) return undefined;
    out.push(p);
  }
  return out;
}

/** The one value a wildcard-free path selects (undefined: none, or a NULL path). */
function selectOne(d: JsonValue, args: readonly Value[], call: JsonCall, i: number): JsonValue | undefined {
  const p = pathArg(args[i] ?? null, call.paths, true);
  if (p === undefined) return undefined;
  return findAll(d, p)[0]?.value;
}

const extract = jsonFn(2, Infinity, JSON_TYPE, (args, call) => {
  const d = doc(args, call, 0, 'json_extract');
  const ps = paths(args, call, 1, false);
  if (d === undefined || ps === undefined) return null;
  const only = ps.length === 1 ? ps[0] : undefined;
  if (only !== undefined && !only.wild) {
    const hit = findAll(d, only)[0];
    return hit === undefined ? null : jsonResult(hit.value);
  }
  const hits = ps.flatMap((p) => findAll(d, p).map((l) => l.value));
  return hits.length === 0 ? null : jsonResult(hits);
});

/** JSON_UNQUOTE: a JSON string literal loses its quotes and escapes; anything else is returned as is. */
export function unquote(v: Value): Value {
  if (v === null) return null;
  const s = valueToString(v);
  if (s.length < 2 || s[0] !== '"' || s[s.length - 1] !== '"') return s;
  const parsed = parseDocText(s, 1, 'json_unquote');
  return typeof parsed === 'string' ? parsed : s;
}

/** JSON_VALUE(doc, path) without RETURNING: the scalar at path as text (NULL for none / non-scalars). */
const value = jsonFn(2, 2, varcharType(512), (args, call) => {
  const d = doc(args, call, 0, 'json_value');
  if (d === undefined) return null;
  const hit = selectOne(d, args, call, 1);
  if (hit === undefined || hit === null || Array.isArray(hit) || hit instanceof Map) return null;
  return typeof hit === 'string' ? hit : jsonResult(hit);
});

const jsonObject = jsonFn(0, Infinity, JSON_TYPE, (args, call) => {
  if (args.length % 2 !== 0) throw SqlError.of('ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT', 'json_object');
  const o: JsonObject = new Map();
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i] ?? null;
    if (k === null) throw SqlError.of('ER_JSON_DOCUMENT_NULL_KEY');
    const key = valueToString(k);
    o.delete(key);
    o.set(key, valueToJson(args[i + 1] ?? null, kindOf(call, i + 1)));
  }
  return jsonResult(o);
}, () => true);

const jsonArray = jsonFn(0, Infinity, JSON_TYPE, (args, call) => jsonResult(args.map((v, i) => valueToJson(v, kindOf(call, i)))), () => true);

const contains = jsonFn(2, 3, BOOL, (args, call) => {
  const target = doc(args, call, 0, 'json_contains');
  const candidate = doc(args, call, 1, 'json_contains');
  if (target === undefined || candidate === undefined) return null;
  let t: JsonValue | undefined = target;
  if (args.length === 3) t = selectOne(target, args, call, 2);
  if (t === undefined) return null;
  return jsonContains(t, candidate, jsonEquals) ? 1n : 0n;
});

const containsPath = jsonFn(3, Infinity, BOOL, (args, call) => {
  const d = doc(args, call, 0, 'json_contains_path');
  const mode = oneOrAll(args[1] ?? null, 'json_contains_path');
  const ps = paths(args, call, 2, false);
  if (d === undefined || mode === undefined || ps === undefined) return null;
  const found = ps.map((p) => findAll(d, p).length > 0);
  return (mode === 'one' ? found.some(Boolean) : found.every(Boolean)) ? 1n : 0n;
});

/** The document, or the value its optional path argument selects (undefined: NULL result). */
function target(args: readonly Value[], call: JsonCall, fn: string): JsonValue | undefined {
  const d = doc(args, call, 0, fn);
  if (d === undefined || args.length < 2) return d;
  return selectOne(d, args, call, 1);
}

const keys = jsonFn(1, 2, JSON_TYPE, (args, call) => {
  const t = target(args, call, 'json_keys');
  if (!(t instanceof Map)) return null;
  return jsonResult(sortedKeys(t));
});

const length = jsonFn(1, 2, bigintType(10), (args, call) => {
  const t = target(args, call, 'json_length');
  if (t === undefined) return null;
  if (Array.isArray(t)) return BigInt(t.length);
  return t instanceof Map ? BigInt(t.size) : 1n;
});

function depth(v: JsonValue): number {
  if (Array.isArray(v)) return v.length === 0 ? 1 : 1 + Math.max(...v.map(depth));
  if (v instanceof Map) return v.size === 0 ? 1 : 1 + Math.max(...[...v.values()].map(depth));
  return 1;
}

const jsonDepth = jsonFn(1, 1, bigintType(10), (args, call) => {
  const d = doc(args, call, 0, 'json_depth');
  return d === undefined ? null : BigInt(depth(d));
});

const type = jsonFn(1, 1, varcharType(16), (args, call) => {
  const d = doc(args, call, 0, 'json_type');
  return d === undefined ? null : jsonTypeName(d);
});

const valid = jsonFn(1, 1, BOOL, (args, call) => {
  const v = args[0] ?? null;
  if (v === null) return null;
  if (kindOf(call, 0).json) return 1n;
  if (typeof v !== 'string' && !(v instanceof Uint8Array)) return 0n;
  return isValidJson(valueToString(v)) ? 1n : 0n;
});

const pretty = jsonFn(1, 1, textType(), (args, call) => {
  const d = doc(args, call, 0, 'json_pretty');
  return d === undefined ? null : prettyJson(d);
});

const quote = jsonFn(1, 1, textType(), (args) => {
  const v = args[0] ?? null;
  return v === null ? null : quoteJsonString(valueToString(v));
});

const overlaps = jsonFn(2, 2, BOOL, (args, call) => {
  const a = doc(args, call, 0, 'json_overlaps');
  const b = doc(args, call, 1, 'json_overlaps');
  if (a === undefined || b === undefined) return null;
  const items = (v: JsonValue): JsonValue[] => (Array.isArray(v) ? v : [v]);
  if (a instanceof Map && b instanceof Map) {
    for (const [k, v] of a) if (b.has(k) && jsonEquals(v, b.get(k) as JsonValue)) return 1n;
    return 0n;
  }
  return items(a).some((x) => items(b).some((y) => jsonEquals(x, y))) ? 1n : 0n;
});

/**
 * `value MEMBER OF (array)` (sql/parse/lib-rewrites.ts sends it as SHALE_MEMBER_OF): whether
 * the value, as JSON, equals an element of the array (or the non-array document itself).
 */
const memberOf = jsonFn(2, 2, BOOL, (args, call) => {
  const v = args[0] ?? null;
  const arr = doc(args, call, 1, 'member of');
  if (v === null || arr === undefined) return null;
  const needle = valueToJson(v, kindOf(call, 0));
  const items = Array.isArray(arr) ? arr : [arr];
  return items.some((x) => jsonEquals(x, needle)) ? 1n : 0n;
});

export const JSON_FUNCTIONS: FunctionTable = {
  JSON_EXTRACT: extract,
  JSON_UNQUOTE: jsonFn(1, 1, textType(), (args) => unquote(args[0] ?? null)),
  JSON_QUOTE: quote,
  JSON_PRETTY: pretty,
  JSON_VALUE: value,
  JSON_OBJECT: jsonObject,
  JSON_ARRAY: jsonArray,
  JSON_CONTAINS: contains,
  JSON_CONTAINS_PATH: containsPath,
  JSON_KEYS: keys,
  JSON_LENGTH: length,
  JSON_DEPTH: jsonDepth,
  JSON_TYPE: type,
  JSON_VALID: valid,
  JSON_OVERLAPS: overlaps,
  SHALE_MEMBER_OF: memberOf,
};
