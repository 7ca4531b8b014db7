/** JSON_SEARCH(doc, 'one'|'all', pattern [, escape [, path ...]]): paths of string scalars matching a LIKE pattern. */
import { docArg, findAll, jsonResult, pathArg, quoteJsonString, sortedKeys, type JsonValue } from '../json/index.js';
import { compileLike } from '../like.js';
import { valueToString } from '../value-to-string.js';
import type { FunctionTable } from './function-def.js';
import { JSON_TYPE, jsonFn, kindOf, oneOrAll } from './json-args.js';

const IDENT = /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_]*$/u;

function memberText(key: string): string {
  return IDENT.test(key) ? `.${key}` : `.${quoteJsonString(key)}`;
}

interface Scope {
  readonly match: (s: string) => boolean;
  /** Locations selected by the path arguments (null: the whole document). */
  readonly roots: Map<unknown, Set<string | number>> | null;
  readonly out: string[];
  readonly one: boolean;
}

function selected(scope: Scope, parent: unknown, key: string | number): boolean {
  return scope.roots === null || scope.roots.get(parent)?.has(key) === true;
}

function walk(v: JsonValue, path: string, inside: boolean, scope: Scope): void {
  if (scope.one && scope.out.length > 0) return;
  if (typeof v === 'string') {
    if (inside && scope.match(v)) scope.out.push(path);
    return;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => walk(x, `${path}[${i}]`, inside || selected(scope, v, i), scope));
  } else if (v instanceof Map) {
    for (const k of sortedKeys(v)) walk(v.get(k) as JsonValue, path + memberText(k), inside || selected(scope, v, k), scope);
  }
}

const search = jsonFn(3, Infinity, JSON_TYPE, (args, call) => {
  const d = docArg(args[0] ?? null, kindOf(call, 0), 1, 'json_search');
  const mode = oneOrAll(args[1] ?? null, 'json_search');
  const pattern = args[2] ?? null;
  if (d === undefined || mode === undefined || pattern === null) return null;
  const escArg = args.length > 3 ? args[3] ?? null : null;
  const esc = escArg === null || valueToString(escArg) === '' ? '\\' : valueToString(escArg);
  const re = compileLike(valueToString(pattern), esc);
  let roots: Map<unknown, Set<string | number>> | null = null;
  if (args.length > 4) {
    roots = new Map();
    for (let i = 4; i < args.length; i++) {
      const p = pathArg(args[i] ?? null, call.paths, false);
      if (p === undefined) return null;
      for (const loc of findAll(d, p)) {
        const set = roots.get(loc.parent) ?? new Set<string | number>();
        set.add(loc.key);
        roots.set(loc.parent, set);
      }
    }
  }
  const scope: Scope = { match: (s) => re.test(s), roots, out: [], one: mode === 'one' };
  walk(d, '$', selected(scope, null, 0), scope);
  if (scope.out.length === 0) return null;
  return jsonResult(scope.out.length === 1 ? (scope.out[0] as string) : scope.out);
});

export const JSON_SEARCH_FUNCTIONS: FunctionTable = { JSON_SEARCH: search };
