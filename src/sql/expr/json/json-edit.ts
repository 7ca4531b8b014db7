/**
 * In-place edits of a parsed document for JSON_SET / JSON_INSERT / JSON_REPLACE /
 * JSON_REMOVE / JSON_ARRAY_APPEND / JSON_ARRAY_INSERT, and the two merges. Each edit returns
 * the (possibly new) root. Paths here never hold wildcards (callers check: 3149).
 */
import { SqlError } from '../../../errors/index.js';
import { findAll, resolveIndex, type JsonLocation, type JsonPath, type PathLeg } from './json-path.js';
import { cloneJson, type JsonObject, type JsonValue } from './json-value.js';

export type SetMode = 'set' | 'insert' | 'replace';

/** Puts `v` at `loc`, returning the new root (`loc` at the root replaces the document). */
function put(root: JsonValue, loc: JsonLocation, v: JsonValue): JsonValue {
  if (loc.parent === null) return v;
  if (Array.isArray(loc.parent)) loc.parent[loc.key as number] = v;
  else loc.parent.set(loc.key as string, v);
  return root;
}

function locate(root: JsonValue, legs: readonly PathLeg[]): JsonLocation | undefined {
  return findAll(root, { legs, wild: false })[0];
}

export function setPath(root: JsonValue, path: JsonPath, v: JsonValue, mode: SetMode): JsonValue {
  const legs = path.legs;
  const last = legs[legs.length - 1];
  if (last === undefined) return mode === 'insert' ? root : v;
  const target = locate(root, legs);
  if (target !== undefined) return mode === 'insert' ? root : put(root, target, v);
  if (mode === 'replace') return root;
  const parent = locate(root, legs.slice(0, -1));
  if (parent === undefined) return root;
  const pv = parent.value;
  if (last.kind === 'member') {
    if (pv instanceof Map) pv.set(last.key, v);
    return root;
  }
  if (last.kind !== 'cell') return root;
  if (Array.isArray(pv)) {
    pv.push(v);
    return root;
  }
  // A position past the end of a non-array: auto-wrap it and append.
  return put(root, parent, [pv, v]);
}

export function removePath(root: JsonValue, path: JsonPath): JsonValue {
  const last = path.legs[path.legs.length - 1];
  if (last === undefined) throw SqlError.of('ER_JSON_VACUOUS_PATH');
  const parent = locate(root, path.legs.slice(0, -1));
  if (parent === undefined) return root;
  const pv = parent.value;
  if (last.kind === 'member' && pv instanceof Map) pv.delete(last.key);
  if (last.kind === 'cell' && Array.isArray(pv)) {
    const at = resolveIndex(last.index, pv.length);
    if (at >= 0 && at < pv.length) pv.splice(at, 1);
  }
  return root;
}

export function arrayAppend(root: JsonValue, path: JsonPath, v: JsonValue): JsonValue {
  const target = locate(root, path.legs);
  if (target === undefined) return root;
  if (Array.isArray(target.value)) {
    target.value.push(v);
    return root;
  }
  return put(root, target, [target.value, v]);
}

export function arrayInsert(root: JsonValue, path: JsonPath, v: JsonValue): JsonValue {
  const last = path.legs[path.legs.length - 1];
  if (last === undefined || last.kind !== 'cell') throw SqlError.of('ER_INVALID_JSON_PATH_ARRAY_CELL');
  const parent = locate(root, path.legs.slice(0, -1));
  if (parent === undefined || !Array.isArray(parent.value)) return root;
  const arr = parent.value;
  const at = resolveIndex(last.index, arr.length);
  arr.splice(Math.max(0, Math.min(at, arr.length)), 0, v);
  return root;
}

/** JSON_MERGE_PRESERVE of two values (RFC-less MySQL rules: arrays concatenate, objects merge keys). */
export function mergePreserve(a: JsonValue, b: JsonValue): JsonValue {
  if (a instanceof Map && b instanceof Map) {
    const out: JsonObject = new Map(a);
    for (const [k, v] of b) out.set(k, out.has(k) ? mergePreserve(out.get(k) as JsonValue, v) : v);
    return out;
  }
  const left = Array.isArray(a) ? a : [a];
  const right = Array.isArray(b) ? b : [b];
  return [...left, ...right];
}

/** JSON_MERGE_PATCH of two values (RFC 7396). */
export function mergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!(patch instanceof Map)) return patch;
  const out: JsonObject = target instanceof Map ? new Map(target) : new Map();
  for (const [k, v] of patch) {
    if (v === null) out.delete(k);
    else out.set(k, mergePatch(out.has(k) ? (out.get(k) as JsonValue) : null, v));
  }
  return out;
}

/**
 * JSON_CONTAINS(target, candidate): a scalar contains an equal scalar; an array contains a
 * non-array candidate when some element contains it, and an array candidate when it contains
 * each of its elements; an object contains an object candidate when every candidate key is
 * present with a contained value.
 */
export function jsonContains(target: JsonValue, candidate: JsonValue, equals: (a: JsonValue, b: JsonValue) => boolean): boolean {
  if (Array.isArray(target)) {
    if (Array.isArray(candidate)) return candidate.every((c) => jsonContains(target, c, equals));
    return target.some((t) => jsonContains(t, candidate, equals));
  }
  if (target instanceof Map) {
    if (!(candidate instanceof Map)) return false;
    for (const [k, v] of candidate) {
      if (!target.has(k) || !jsonContains(target.get(k) as JsonValue, v, equals)) return false;
    }
    return true;
  }
  if (Array.isArray(candidate) || candidate instanceof Map) return false;
  return equals(target, candidate);
}

export { cloneJson };
