/**
 * Token-level view of every SELECT's item list, in text order. MySQL labels an unaliased
 * select item with its original text, which node-sql-parser does not keep; the converters
 * take these texts in the same (pre-order) order in which the SELECT keywords appear.
 */
import type { Token } from './lexer.js';

export interface ItemExtent {
  /** Token index range [first, last] of the item. */
  readonly first: number;
  readonly last: number;
  readonly text: string;
  /** Token-level guess: the item ends with an alias (used only to decide literal lifting). */
  readonly aliased: boolean;
}

const MODIFIERS = new Set([
  'ALL', 'DISTINCT', 'DISTINCTROW', 'HIGH_PRIORITY', 'STRAIGHT_JOIN', 'SQL_SMALL_RESULT', 'SQL_BIG_RESULT',
  'SQL_BUFFER_RESULT', 'SQL_NO_CACHE', 'SQL_CACHE', 'SQL_CALC_FOUND_ROWS',
]);
const ENDERS = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'INTO', 'FOR', 'LOCK', 'UNION', 'WINDOW', 'EXCEPT', 'INTERSECT']);
const NOT_ALIAS = new Set(['END', 'NULL', 'TRUE', 'FALSE', 'UNKNOWN']);
const OPERATOR_WORDS = new Set([
  'AS', 'DIV', 'MOD', 'AND', 'OR', 'XOR', 'NOT', 'IS', 'LIKE', 'IN', 'BETWEEN', 'REGEXP', 'RLIKE', 'BINARY',
  'INTERVAL', 'CASE', 'WHEN', 'THEN', 'ELSE', 'DISTINCT', 'ALL', 'SOUNDS', 'ESCAPE', 'COLLATE', 'SELECT',
]);

/** Item lists of all SELECTs in `tokens`, in the order their SELECT keywords appear. */
export function selectLists(sql: string, tokens: readonly Token[]): ItemExtent[][] {
  const out: ItemExtent[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t !== undefined && t.type === 'word' && t.upper === 'SELECT') out.push(itemsAfter(sql, tokens, i + 1));
  }
  return out;
}

function itemsAfter(sql: string, tokens: readonly Token[], from: number): ItemExtent[] {
  let i = from;
  while (isWord(tokens[i], MODIFIERS)) i++;
  const items: ItemExtent[] = [];
  let depth = 0;
  let start = i;
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    if (t.type === 'op' && t.text === '(') depth++;
    else if (t.type === 'op' && t.text === ')') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && t.type === 'semi') break;
    else if (depth === 0 && t.type === 'word' && ENDERS.has(t.upper)) break;
    else if (depth === 0 && t.type === 'op' && t.text === ',') {
      pushItem(sql, tokens, start, i - 1, items);
      start = i + 1;
    }
  }
  pushItem(sql, tokens, start, i - 1, items);
  return items;
}

function pushItem(sql: string, tokens: readonly Token[], first: number, last: number, items: ItemExtent[]): void {
  const a = tokens[first];
  const b = tokens[last];
  if (a === undefined || b === undefined || last < first) return;
  const text = stringLabel(tokens, first, last) ?? sql.slice(a.start, b.end);
  items.push({ first, last, text, aliased: looksAliased(tokens, first, last) });
}

/** A lone string literal (`'two'`, `N'x'`, `_utf8mb4'x'`, `'a' 'b'`) is labelled by its first string's value, like MySQL. */
function stringLabel(tokens: readonly Token[], first: number, last: number): string | undefined {
  let i = first;
  const intro = tokens[i];
  if (intro !== undefined && intro.type === 'word' && (intro.upper === 'N' || intro.text.startsWith('_'))) i++;
  const str = tokens[i];
  if (str === undefined || str.type !== 'string' || i > last) return undefined;
  for (let k = i; k <= last; k++) if (tokens[k]?.type !== 'string') return undefined;
  return String(str.value);
}

function looksAliased(tokens: readonly Token[], first: number, last: number): boolean {
  if (last - first < 1) return false;
  const end = tokens[last];
  const prev = tokens[last - 1];
  if (end === undefined || prev === undefined) return false;
  if (prev.type === 'word' && prev.upper === 'AS') return true;
  if (end.type === 'word' && NOT_ALIAS.has(end.upper)) return false;
  if (end.type !== 'word' && end.type !== 'qident' && end.type !== 'string') return false;
  if (prev.type === 'op') return prev.text === ')';
  if (prev.type === 'word') return !OPERATOR_WORDS.has(prev.upper);
  return true;
}

function isWord(t: Token | undefined, set: ReadonlySet<string>): boolean {
  return t !== undefined && t.type === 'word' && set.has(t.upper);
}
