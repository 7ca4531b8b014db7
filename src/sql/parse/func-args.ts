/**
 * node-sql-parser call shapes normalized before conversion: keyword arguments arrive as
 * `origin` nodes (`TIMESTAMPDIFF(MINUTE, ...)`, `TRIM(LEADING x FROM s)`), `GET_FORMAT(DATE, ...)`
 * names a type, and lib-rewrites.ts sends `EXTRACT(unit FROM d)` as `SHALE_EXTRACT(unit, d)`.
 */
import { isObj, str, typeOf } from './guards.js';
import { EXTRACT_FN } from './lib-rewrites.js';

const TRIM_MODES = new Set(['LEADING', 'TRAILING', 'BOTH']);

function stringNode(value: string): unknown {
  return { type: 'single_quote_string', value };
}

function originWord(node: unknown): string | undefined {
  return isObj(node) && typeOf(node) === 'origin' ? String(node['value'] ?? '').toUpperCase() : undefined;
}

/** [name, raw arguments] with keyword arguments as upper-case string literals. */
export function normalizeCall(name: string, rawArgs: readonly unknown[]): [string, unknown[]] {
  if (name === EXTRACT_FN || name === 'GET_FORMAT') {
    const first = rawArgs[0];
    const word = isObj(first) && typeOf(first) === 'column_ref' ? str(first, 'column') : undefined;
    const args = word === undefined ? [...rawArgs] : [stringNode(word.toUpperCase()), ...rawArgs.slice(1)];
    return [name === EXTRACT_FN ? 'EXTRACT' : name, args];
  }
  if (name === 'TRIM') return [name, trimArgs(rawArgs)];
  return [name, rawArgs.map((a) => {
    const w = originWord(a);
    return w === undefined ? a : stringNode(w);
  })];
}

/** TRIM([mode] [remstr] FROM s) -> (s) | (remstr, s) | (mode, remstr, s) as string.ts expects. */
function trimArgs(rawArgs: readonly unknown[]): unknown[] {
  const out = rawArgs.filter((a) => originWord(a) !== 'FROM');
  const mode = originWord(out[0]);
  if (mode !== undefined && TRIM_MODES.has(mode)) {
    const rest = out.slice(1);
    return rest.length === 1 ? [stringNode(mode), stringNode(' '), ...rest] : [stringNode(mode), ...rest];
  }
  return out;
}
