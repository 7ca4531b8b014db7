/**
 * The bridge between SQL values and JSON values. ShaleDB carries JSON at runtime as its
 * normalized text (a JS string) typed `json`; whether an argument is JSON or a plain string is
 * known from its static type (`TypeInfo`), as in MySQL.
 */
import { DateTime, Decimal, Duration, type ColumnType, type Value } from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import { utf8Decode } from '../../../util/index.js';
import { valueToString } from '../value-to-string.js';
import { JsonSyntaxError, parseJson } from './json-parse.js';
import { parsePath, type JsonPath } from './json-path.js';
import { serializeJson } from './json-serialize.js';
import type { JsonValue } from './json-value.js';

/** What a compiled call knows about one argument. */
export interface ArgKind {
  /** The argument's static type is JSON. */
  readonly json: boolean;
  /** The argument is a predicate (comparison, IS, IN, LIKE, NOT, AND/OR...): it becomes true/false. */
  readonly bool: boolean;
  readonly type: ColumnType;
}

/** Parses `text` as the JSON document argument `argNo` (1-based) of `fn`; bad text is 3141. */
export function parseDocText(text: string, argNo: number, fn: string): JsonValue {
  try {
    return parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw SqlError.of('ER_INVALID_JSON_TEXT_IN_PARAM', argNo, fn, e.reason, e.position);
    throw e;
  }
}

/**
 * A JSON document argument: JSON values and strings are parsed (3141 when not JSON), binary
 * strings are 3144, other types 3146. NULL stays null (callers return NULL).
 */
export function docArg(v: Value, kind: ArgKind, argNo: number, fn: string): JsonValue | undefined {
  if (v === null) return undefined;
  if (typeof v === 'string') return parseDocText(v, argNo, fn);
  if (v instanceof Uint8Array) {
    if (isBinaryKind(kind.type)) throw SqlError.of('ER_INVALID_JSON_CHARSET', 'binary');
    return parseDocText(utf8Decode(v), argNo, fn);
  }
  throw SqlError.of('ER_INVALID_TYPE_FOR_JSON', argNo, fn);
}

function isBinaryKind(t: ColumnType): boolean {
  return t.kind === 'binary' || t.kind === 'varbinary' || t.kind === 'blob';
}

/** MySQL's field type number in `base64:typeNN:` for opaque binary values. */
function opaqueTypeCode(t: ColumnType): number {
  if (t.kind === 'blob') return 252;
  if (t.kind === 'binary') return 254;
  return 15;
}

function fsp6(v: DateTime | Duration): string {
  if (v instanceof Duration) return new Duration(v.micros, 6).toString();
  return v.kind === 'date' ? v.toString() : v.withKind('datetime', 6).toString();
}

/** A SQL value as a JSON value (JSON_ARRAY / JSON_OBJECT / JSON_SET values, JSON_ARRAYAGG). */
export function valueToJson(v: Value, kind: ArgKind): JsonValue {
  if (v === null) return null;
  if (kind.json && typeof v === 'string') {
    try {
      return parseJson(v);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      return v; // not JSON after all (e.g. text stored before validation): a string
    }
  }
  if (kind.bool) return truthyNumber(v);
  if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal) return v;
  if (v instanceof Uint8Array) {
    if (!isBinaryKind(kind.type)) return utf8Decode(v);
    return `base64:type${opaqueTypeCode(kind.type)}:${Buffer.from(v).toString('base64')}`;
  }
  if (v instanceof DateTime || v instanceof Duration) return fsp6(v);
  return valueToString(v);
}

function truthyNumber(v: Exclude<Value, null>): boolean {
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof Decimal) return !v.isZero();
  return valueToString(v) !== '0';
}

/** A path argument (NULL: undefined). Paths that are constant text are parsed once per call site. */
export function pathArg(v: Value, cache: Map<string, JsonPath>, forbidWild: boolean): JsonPath | undefined {
  if (v === null) return undefined;
  const text = typeof v === 'string' ? v : valueToString(v);
  let p = cache.get(text);
  if (p === undefined) {
    p = parsePath(text);
    if (cache.size < 64) cache.set(text, p);
  }
  if (forbidWild && p.wild) throw SqlError.of('ER_INVALID_JSON_PATH_WILDCARD');
  return p;
}

/** JSON result value as the text SQL carries. */
export function jsonResult(v: JsonValue): string {
  return serializeJson(v);
}

/**
 * CAST(v AS JSON) and storing into a JSON column: text is parsed (3141 naming `fn`, or the
 * caller's own error) and re-serialized in normal form; numbers and temporal values become
 * JSON scalars; binary strings are 3144 (MySQL refuses CHARACTER SET binary).
 */
export function toJsonText(v: Exclude<Value, null>, fn: string): string {
  if (typeof v === 'string') return serializeJson(parseDocText(v, 1, fn));
  if (v instanceof Uint8Array) throw SqlError.of('ER_INVALID_JSON_CHARSET', 'binary');
  return serializeJson(valueToJson(v, { json: false, bool: false, type: NO_TYPE }));
}

const NO_TYPE: ColumnType = { kind: 'null', unsigned: false, length: -1, scale: 0, lob: 'normal', collation: 'binary' };
