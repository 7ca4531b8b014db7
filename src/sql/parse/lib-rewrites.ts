/**
 * Token rewrites for MySQL syntax node-sql-parser 5.4 lacks, applied by lib.ts before it
 * hands the text over (convert-expr.ts turns the stand-ins back):
 * - `a <=> b` is sent as `a != b` (and a real `!=` as `<>`): same precedence, and convert-expr
 *   maps `!=` to `<=>`;
 * - `SUBSTRING(s FROM n [FOR m])` / `SUBSTR` / `MID`: FROM and FOR become commas;
 * - `EXTRACT(unit FROM d)` becomes `SHALE_EXTRACT(`unit`, d)` (node-sql-parser lacks some units);
 * - `UPDATE [LOW_PRIORITY] [IGNORE]` and `DELETE [LOW_PRIORITY] [QUICK] [IGNORE]`: the modifiers are
 *   dropped (convert-dml reads IGNORE from the text: `hasIgnoreModifier`);
 * - a bare `CURRENT_USER` becomes `CURRENT_USER()`; `CHAR(n USING cs)` becomes `SHALE_CHAR_USING(n)`;
 * - `BINARY x` (the cast operator) becomes `SHALE_BINARY(x)` for a simple operand (identifier
 *   chain, literal, parameter, variable, function call or parenthesized expression).
 * - `v MEMBER OF (json)` becomes `SHALE_MEMBER_OF(v, (json))` for a simple operand `v` (as for
 *   BINARY); functions/json.ts implements it.
 */
import type { Token } from './lexer.js';

export const BINARY_FN = 'SHALE_BINARY';
export const EXTRACT_FN = 'SHALE_EXTRACT';
/** `CHAR(n, ... USING charset)`: a text result (functions/string-codes.ts). */
export const CHAR_USING_FN = 'SHALE_CHAR_USING';
/** `v MEMBER OF (json)` (functions/json.ts registers this name). */
export const MEMBER_OF_FN = 'SHALE_MEMBER_OF';

export interface TokenRewrite {
  readonly text?: string;
  /** Appended after the token's (possibly replaced) text. */
  readonly append?: string;
}

const SUBSTRING_NAMES = new Set(['SUBSTRING', 'SUBSTR', 'MID']);

/** Rewrites by token index; empty for most statements (one cheap pass). */
export function libRewrites(tokens: readonly Token[]): Map<number, TokenRewrite> {
  const out = new Map<number, TokenRewrite>();
  const opens: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.type === 'op') {
      if (t.text === '(') opens.push(i);
      else if (t.text === ')') opens.pop();
      else if (t.text === '<=>') out.set(i, { text: '!=' });
      else if (t.text === '!=') out.set(i, { text: '<>' });
      continue;
    }
    if (t.type !== 'word') continue;
    if (t.upper === 'CURRENT_USER' && tokens[i + 1]?.text !== '(' && tokens[i - 1]?.text !== '.') {
      out.set(i, { text: 'CURRENT_USER()' });
      continue;
    }
    if (isDmlModifier(tokens, i)) {
      out.set(i, { text: '' });
      continue;
    }
    const open = opens[opens.length - 1];
    if (t.upper === 'USING' && open !== undefined && tokens[open - 1]?.upper === 'CHAR' && tokens[i + 1]?.type === 'word') {
      out.set(open - 1, { text: CHAR_USING_FN });
      out.set(i, { text: '' });
      out.set(i + 1, { text: '' });
      i++;
    } else if ((t.upper === 'FROM' || t.upper === 'FOR') && inSubstring(tokens, opens)) out.set(i, { text: ',' });
    else if (t.upper === 'EXTRACT' && tokens[i + 1]?.text === '(' && tokens[i + 2]?.type === 'word' && tokens[i + 3]?.upper === 'FROM') {
      out.set(i, { text: EXTRACT_FN });
      out.set(i + 2, { text: `\`${tokens[i + 2]?.upper ?? ''}\`` });
      out.set(i + 3, { text: ',' });
    }
    else if (t.upper === 'MEMBER' && tokens[i + 1]?.upper === 'OF' && tokens[i + 2]?.text === '(') memberOf(tokens, i, out);
    else if (t.upper === 'BINARY' && isBinaryOperator(tokens, i)) {
      const end = operandEnd(tokens, i + 1);
      if (end !== undefined) {
        out.set(i, { text: `${BINARY_FN}(` });
        const prev = out.get(end);
        out.set(end, { ...prev, append: `${prev?.append ?? ''})` });
      }
    }
  }
  return out;
}

/** `v MEMBER OF (json)` at `i` (the MEMBER token) -> `SHALE_MEMBER_OF(v, (json))`. */
function memberOf(tokens: readonly Token[], i: number, out: Map<number, TokenRewrite>): void {
  const start = operandStart(tokens, i - 1);
  const close = closing(tokens, i + 2);
  if (start === undefined || start === 0 || close === undefined) return;
  const before = out.get(start - 1);
  out.set(start - 1, { ...before, append: `${before?.append ?? ''} ${MEMBER_OF_FN}(` });
  out.set(i, { text: ',' });
  out.set(i + 1, { text: '' });
  const after = out.get(close);
  out.set(close, { ...after, append: `${after?.append ?? ''})` });
}

/** Index of the first token of the simple expression ending at `j` (literal, identifier chain, call, parentheses). */
function operandStart(tokens: readonly Token[], j: number): number | undefined {
  const t = tokens[j];
  if (t === undefined) return undefined;
  if (t.type === 'string' || t.type === 'number' || t.type === 'hex' || t.type === 'bit' || t.type === 'param' || t.type === 'var') return j;
  if (t.type === 'op' && t.text === ')') {
    let depth = 0;
    for (let k = j; k >= 0; k--) {
      const x = tokens[k] as Token;
      if (x.type !== 'op') continue;
      if (x.text === ')') depth++;
      else if (x.text === '(' && --depth === 0) return isCallName(tokens, k - 1, x) ? k - 1 : k;
    }
    return undefined;
  }
  if (t.type !== 'word' && t.type !== 'qident') return undefined;
  let k = j;
  while (tokens[k - 1]?.text === '.' && (tokens[k - 2]?.type === 'word' || tokens[k - 2]?.type === 'qident')) k -= 2;
  return k;
}

const NOT_CALLS = new Set(['AND', 'OR', 'NOT', 'XOR', 'WHERE', 'SELECT', 'ON', 'WHEN', 'THEN', 'ELSE', 'IN', 'IS', 'BY', 'HAVING', 'SET', 'VALUES', 'LIKE', 'CASE', 'AS']);

/** The word right before `open` names a function called with it (`f(`), not a keyword. */
function isCallName(tokens: readonly Token[], k: number, open: Token): boolean {
  const w = tokens[k];
  return w !== undefined && w.type === 'word' && w.end === open.start && !NOT_CALLS.has(w.upper);
}

function inSubstring(tokens: readonly Token[], opens: readonly number[]): boolean {
  const open = opens[opens.length - 1];
  if (open === undefined) return false;
  const fn = tokens[open - 1];
  return fn !== undefined && fn.type === 'word' && SUBSTRING_NAMES.has(fn.upper);
}

/** BINARY as the cast operator, not a type name (`AS BINARY`, `CONVERT(x, BINARY)`, `REGEXP BINARY`). */
function isBinaryOperator(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (next === undefined || prev === undefined) return false;
  if (prev.type === 'word' && ['AS', 'REGEXP', 'RLIKE', 'LIKE', 'CHARACTER', 'CHARSET', 'SET', 'COLLATE'].includes(prev.upper)) return false;
  if (prev.type === 'op' && prev.text === ',' && isConvertArg(tokens, i)) return false;
  return true;
}

/** `CONVERT(x, BINARY)`: a BINARY right before the closing paren of a CONVERT call. */
function isConvertArg(tokens: readonly Token[], i: number): boolean {
  const next = tokens[i + 1];
  return next !== undefined && next.type === 'op' && (next.text === ')' || next.text === '(');
}

/** Index of the last token of the simple expression starting at `i`, or undefined. */
function operandEnd(tokens: readonly Token[], i: number): number | undefined {
  const t = tokens[i];
  if (t === undefined) return undefined;
  if (t.type === 'string' || t.type === 'number' || t.type === 'hex' || t.type === 'bit' || t.type === 'param' || t.type === 'var') return i;
  if (t.type === 'op' && t.text === '(') return closing(tokens, i);
  if (t.type !== 'word' && t.type !== 'qident') return undefined;
  if (t.type === 'word' && t.upper === 'BINARY') return operandEnd(tokens, i + 1);
  let end = i;
  for (;;) {
    const next = tokens[end + 1];
    if (next?.type === 'op' && next.text === '.' && tokens[end + 2] !== undefined) end += 2;
    else if (next?.type === 'op' && next.text === '(') return closing(tokens, end + 1);
    else return end;
  }
}

function closing(tokens: readonly Token[], open: number): number | undefined {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.type !== 'op') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth === 0) return k;
  }
  return undefined;
}

const DML_MODIFIERS = new Set(['LOW_PRIORITY', 'QUICK', 'IGNORE']);

/** A modifier word right after the statement's leading UPDATE / DELETE (node-sql-parser rejects them). */
function isDmlModifier(tokens: readonly Token[], i: number): boolean {
  if (!DML_MODIFIERS.has(tokens[i]?.upper ?? '')) return false;
  let k = i - 1;
  while (k > 0 && DML_MODIFIERS.has(tokens[k]?.upper ?? '')) k--;
  return k === 0 && (tokens[0]?.upper === 'UPDATE' || tokens[0]?.upper === 'DELETE');
}

/** `UPDATE ... IGNORE` / `DELETE ... IGNORE` as written (the modifier the rewrite drops). */
export function hasIgnoreModifier(tokens: readonly Token[]): boolean {
  for (let k = 1; k < tokens.length && DML_MODIFIERS.has(tokens[k]?.upper ?? ''); k++) if (tokens[k]?.upper === 'IGNORE') return true;
  return false;
}
