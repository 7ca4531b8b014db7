/**
 * The only door to node-sql-parser. Text reaches it rewritten from our tokens: parameter slots
 * become named params `:pN`, bare DEFAULT becomes `:shale_default`, introducers are dropped,
 * strings are re-quoted canonically and `FOR SHARE` becomes `LOCK IN SHARE MODE`.
 */
import nsp from 'node-sql-parser/build/mysql.js';
import type { SqlError } from '../../errors/index.js';
import type { Token } from './lexer.js';
import { libRewrites } from './lib-rewrites.js';
import { derivedColumnRewrites } from './derived-columns-rewrite.js';
import { parseError } from './parse-error.js';
import { windowTokenText } from './window-rewrite.js';
import type { SlotPlan } from './slots.js';

export const DEFAULT_PARAM = 'shale_default';

const parser = new nsp.Parser();
/** node-sql-parser rejects `SUM(DISTINCT x)` etc.; they are renamed to SHALE_DISTINCT_<AGG>(x). */
const DISTINCT_AGGS = new Set(['SUM', 'AVG', 'MIN', 'MAX', 'BIT_AND', 'BIT_OR', 'BIT_XOR']);

export interface Rewritten {
  readonly text: string;
  /** Start offset in `text` of each token. */
  readonly offsets: readonly number[];
}

export function rewriteForLib(tokens: readonly Token[], plan: SlotPlan): Rewritten {
  let text = '';
  const offsets: number[] = [];
  let ordinal = 0;
  const rewrites = libRewrites(tokens);
  derivedColumnRewrites(tokens, rewrites);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    const prev = tokens[i - 1];
    const rw = rewrites.get(i);
    let piece = rw?.text ?? tokenText(tokens, i, t);
    if (plan.byToken[i] !== undefined) piece = `:p${ordinal++}`;
    if (rw?.append !== undefined) piece += rw.append;
    if (text.length > 0 && (prev === undefined || prev.end !== t.start || piece.startsWith(':') || isWideInteger(t))) text += ' ';
    offsets.push(text.length);
    text += piece;
  }
  return { text, offsets };
}

/**
 * node-sql-parser folds `-9223372036854775808` into a JS number and loses digits; a space after
 * the sign makes it a unary minus over its exact 'bigint' node, which convert-expr folds exactly.
 */
function isWideInteger(t: Token): boolean {
  return t.type === 'number' && typeof t.value === 'bigint' && (t.value > 9007199254740991n || t.value < -9007199254740991n);
}

function tokenText(tokens: readonly Token[], i: number, t: Token): string {
  const win = windowTokenText(tokens, i);
  if (win !== undefined) return win;
  if (t.type === 'string') return quote(String(t.value));
  if (t.type !== 'word') return t.text;
  const next = tokens[i + 1];
  if (t.text.startsWith('_') && next !== undefined && next.type === 'string') return '';
  if (t.upper === 'DEFAULT' && isBareDefault(tokens, i)) return `:${DEFAULT_PARAM}`;
  if (DISTINCT_AGGS.has(t.upper) && next?.text === '(' && tokens[i + 2]?.upper === 'DISTINCT') return `SHALE_DISTINCT_${t.upper}`;
  if (t.upper === 'DISTINCT' && tokens[i - 1]?.text === '(' && DISTINCT_AGGS.has(tokens[i - 2]?.upper ?? '')) return '';
  if (t.upper === 'FOR' && next !== undefined && next.type === 'word' && next.upper === 'SHARE') return 'LOCK IN';
  if (t.upper === 'SHARE' && tokens[i - 1]?.upper === 'FOR') return 'SHARE MODE';
  return t.text;
}

function isBareDefault(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (next !== undefined && next.type === 'op' && next.text === '(') return false;
  return prev !== undefined && prev.type === 'op' && (prev.text === '(' || prev.text === ',' || prev.text === '=');
}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** Parses rewritten text; on failure throws a 1064 positioned in the original `sql`. */
export function astify(sql: string, tokens: readonly Token[], rw: Rewritten): unknown {
  try {
    return parser.astify(rw.text, { database: 'MySQL' });
  } catch (err) {
    throw mapError(sql, tokens, rw, err);
  }
}

function mapError(sql: string, tokens: readonly Token[], rw: Rewritten, err: unknown): SqlError {
  const offset = errorOffset(err);
  const last = tokens[tokens.length - 1];
  const endPos = last ? last.end : sql.length;
  if (offset === undefined) return parseError(sql, tokens[0]?.start ?? 0);
  if (offset >= rw.text.trimEnd().length) return parseError(sql, endPos);
  let i = 0;
  while (i + 1 < rw.offsets.length && (rw.offsets[i + 1] ?? 0) <= offset) i++;
  if (rw.text[offset] === ' ' && offset > (rw.offsets[i] ?? 0)) i++;
  const t = tokens[i];
  return parseError(sql, t ? t.start : endPos);
}

function errorOffset(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || !('location' in err)) return undefined;
  const loc: unknown = err.location;
  if (typeof loc !== 'object' || loc === null || !('start' in loc)) return undefined;
  const start: unknown = loc.start;
  if (typeof start !== 'object' || start === null || !('offset' in start)) return undefined;
  return typeof start.offset === 'number' ? start.offset : undefined;
}
