/**
 * JSON functions that edit documents: JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE,
 * JSON_ARRAY_APPEND, JSON_ARRAY_INSERT, JSON_MERGE_PATCH, JSON_MERGE_PRESERVE (and its
 * deprecated alias JSON_MERGE). Paths with wildcards are 3149; NULL document or path: NULL.
 */
import { SqlError } from '../../../errors/index.js';
import {
  arrayAppend, arrayInsert, docArg, jsonResult, mergePatch, mergePreserve, pathArg, removePath, setPath, valueToJson,
  type JsonPath, type JsonValue, type SetMode,
} from '../json/index.js';
import type { Value } from '../../../types/index.js';
import type { FunctionDef, FunctionTable } from './function-def.js';
import { JSON_TYPE, jsonFn, kindOf, type JsonCall } from './json-args.js';

type Edit = (root: JsonValue, path: JsonPath, v: JsonValue) => JsonValue;

/** doc, (path, value)+ — applied left to right. */
function pairEdit(fn: string, edit: Edit): FunctionDef {
  return jsonFn(3, Infinity, JSON_TYPE, (args, call) => {
    if (args.length % 2 !== 1) throw SqlError.of('ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT', fn);
    let root = docArg(args[0] ?? null, kindOf(call, 0), 1, fn);
    if (root === undefined) return null;
    for (let i = 1; i < args.length; i += 2) {
      const p = pathArg(args[i] ?? null, call.paths, true);
      if (p === undefined) return null;
      root = edit(root, p, valueToJson(args[i + 1] ?? null, kindOf(call, i + 1)));
    }
    return jsonResult(root);
  });
}

function setter(fn: string, mode: SetMode): FunctionDef {
  return pairEdit(fn, (root, p, v) => setPath(root, p, v, mode));
}

const remove = jsonFn(2, Infinity, JSON_TYPE, (args, call) => {
  let root = docArg(args[0] ?? null, kindOf(call, 0), 1, 'json_remove');
  if (root === undefined) return null;
  for (let i = 1; i < args.length; i++) {
    const p = pathArg(args[i] ?? null, call.paths, true);
    if (p === undefined) return null;
    root = removePath(root, p);
  }
  return jsonResult(root);
});

function docs(args: readonly Value[], call: JsonCall, fn: string): JsonValue[] | undefined {
  const out: JsonValue[] = [];
  for (let i = 0; i < args.length; i++) {
    const d = docArg(args[i] ?? null, kindOf(call, i), i + 1, fn);
    if (d === undefined) return undefined;
    out.push(d);
  }
  return out;
}

function merge(fn: string, step: (a: JsonValue, b: JsonValue) => JsonValue): FunctionDef {
  return jsonFn(2, Infinity, JSON_TYPE, (args, call) => {
    const ds = docs(args, call, fn);
    if (ds === undefined) return null;
    return jsonResult(ds.slice(1).reduce(step, ds[0] as JsonValue));
  });
}

export const JSON_EDIT_FUNCTIONS: FunctionTable = {
  JSON_SET: setter('json_set', 'set'),
  JSON_INSERT: setter('json_insert', 'insert'),
  JSON_REPLACE: setter('json_replace', 'replace'),
  JSON_REMOVE: remove,
  JSON_ARRAY_APPEND: pairEdit('json_array_append', arrayAppend),
  JSON_ARRAY_INSERT: pairEdit('json_array_insert', arrayInsert),
  JSON_MERGE_PATCH: merge('json_merge_patch', mergePatch),
  JSON_MERGE_PRESERVE: merge('json_merge_preserve', mergePreserve),
  JSON_MERGE: merge('json_merge', mergePreserve),
};
