/**
 * `(SELECT ...) [AS] d (a, b)`: node-sql-parser 5.4 rejects a derived table's column list. The
 * list is dropped from the text it sees and carried in the alias instead, as the backquoted
 * identifier `d<SEP>a<SEP>b`; convert-select.ts splits it back (`splitDerivedAlias`).
 */
import type { Token } from './lexer.js';
import type { TokenRewrite } from './lib-rewrites.js';

const SEP = '\u0001';
/** Words that may open a derived table's parenthesis. */
const BEFORE = new Set(['FROM', 'JOIN', 'LATERAL']);
/** Keywords and operators that may follow a parenthesized query (never its alias). */
const NOT_ALIAS = new Set([
  'ON', 'USING', 'WHERE', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'CROSS', 'NATURAL', 'STRAIGHT_JOIN', 'GROUP', 'ORDER',
  'HAVING', 'LIMIT', 'UNION', 'EXCEPT', 'INTERSECT', 'WINDOW', 'FOR', 'LOCK', 'INTO', 'AND', 'OR', 'XOR', 'NOT',
  'IN', 'IS', 'LIKE', 'DIV', 'MOD', 'REGEXP', 'RLIKE', 'BETWEEN', 'SOUNDS', 'MEMBER', 'ESCAPE', 'COLLATE',
]);
const QUERY_START = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);

/** Adds the rewrites of every derived table with a column list in `tokens` to `out`. */
export function derivedColumnRewrites(tokens: readonly Token[], out: Map<number, TokenRewrite>): void {
  const opens: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.type !== 'op') continue;
    if (t.text === '(') opens.push(i);
    else if (t.text === ')') {
      const open = opens.pop();
      if (open !== undefined && opensDerived(tokens, open)) rewriteList(tokens, i, out);
    }
  }
}

function opensDerived(tokens: readonly Token[], open: number): boolean {
  const prev = tokens[open - 1];
  const first = tokens[open + 1];
  if (prev === undefined || first === undefined) return false;
  const before = (prev.type === 'word' && BEFORE.has(prev.upper)) || (prev.type === 'op' && prev.text === ',');
  const query = (first.type === 'word' && QUERY_START.has(first.upper)) || (first.type === 'op' && first.text === '(');
  return before && query;
}

/** `close` ends a derived table's query: `[AS] alias ( name [, name]... )` after it is rewritten. */
function rewriteList(tokens: readonly Token[], close: number, out: Map<number, TokenRewrite>): void {
  let a = close + 1;
  if (tokens[a]?.type === 'word' && tokens[a]?.upper === 'AS') a++;
  const alias = identName(tokens[a]);
  if (alias === undefined || tokens[a + 1]?.text !== '(' || tokens[a + 1]?.type !== 'op') return;
  const names: string[] = [];
  let j = a + 2;
  for (;;) {
    const name = identName(tokens[j]);
    if (name === undefined) return;
    names.push(name);
    const sep = tokens[j + 1];
    if (sep?.type !== 'op') return;
    if (sep.text === ')') break;
    if (sep.text !== ',') return;
    j += 2;
  }
  const encoded = [alias, ...names].join(SEP).replace(/`/g, '``');
  out.set(a, { text: `\`${encoded}\`` });
  for (let k = a + 1; k <= j + 1; k++) out.set(k, { text: '' });
}

function identName(t: Token | undefined): string | undefined {
  if (t === undefined) return undefined;
  if (t.type === 'qident') return String(t.value);
  if (t.type === 'word' && !NOT_ALIAS.has(t.upper)) return t.text;
  return undefined;
}

/** `alias` as written, and the column list it carries (if any). */
export function splitDerivedAlias(alias: string): { alias: string; columns?: string[] } {
  if (!alias.includes(SEP)) return { alias };
  const [name = '', ...columns] = alias.split(SEP);
  return { alias: name, columns };
}
