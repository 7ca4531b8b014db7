/**
 * node-sql-parser 5.4 parses only ROWS window frames. A RANGE frame is sent as a ROWS frame
 * after an extra ORDER BY item `:shale_range` (added as `ORDER BY :shale_range` when the
 * window has none); convert-window.ts removes the item and restores the unit. A RANGE bound
 * `INTERVAL n unit PRECEDING` is sent as `n PRECEDING`, its unit carried by the marker
 * (`:shale_range_DAY_x`: start bound in days, end bound without INTERVAL).
 */
import type { Token } from './lexer.js';
import type { Slot, SlotPlan } from './slots.js';

export const RANGE_PARAM = 'shale_range';
/** `OVER (w ...)` / `WINDOW x AS (w ...)`: the base window `w` is sent as `PARTITION BY :shale_wref_<hex name>`. */
export const WINDOW_REF_PREFIX = 'shale_wref_';

const SPEC_WORDS = new Set(['PARTITION', 'ORDER', 'ROWS', 'RANGE']);

const FRAME_STARTS = new Set(['BETWEEN', 'UNBOUNDED', 'CURRENT', 'INTERVAL']);
const UNITS = new Set(['MICROSECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']);

/**
 * node-sql-parser also refuses `AND n PRECEDING` as a frame end: it is sent as `AND -n FOLLOWING`
 * (convert-window.ts turns a negative FOLLOWING back into PRECEDING).
 */
export function windowTokenText(tokens: readonly Token[], i: number): string | undefined {
  const t = tokens[i] as Token;
  if (t.type === 'number') return isPrecedingEnd(tokens, isRangeInterval(tokens, i - 1) ? i + 2 : i + 1) ? `-${t.text}` : undefined;
  if (isRangeInterval(tokens, i) || (t.type === 'word' && UNITS.has(t.upper) && isRangeInterval(tokens, i - 2))) return '';
  if (isBaseWindowRef(tokens, i)) {
    const name = t.type === 'qident' ? String(t.value) : t.text;
    return `PARTITION BY :${WINDOW_REF_PREFIX}${Buffer.from(name, 'utf8').toString('hex')}`;
  }
  if (t.type !== 'word') return undefined;
  if (t.upper === 'PRECEDING' && isPrecedingEnd(tokens, i)) return 'FOLLOWING';
  if (t.upper === 'RANGE') return rangeFrameText(tokens, i);
  return undefined;
}

/** Token i names the window a spec starts from: `OVER (w`, `WINDOW x AS (w`, `, x AS (w`. */
function isBaseWindowRef(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i] as Token;
  if (!((t.type === 'word' && !SPEC_WORDS.has(t.upper)) || t.type === 'qident')) return false;
  // `WITH a AS (...), b AS (SELECT ...)`: a CTE, not a window.
  if (t.type === 'word' && (t.upper === 'SELECT' || t.upper === 'WITH')) return false;
  if (tokens[i - 1]?.text !== '(') return false;
  const before = tokens[i - 2];
  if (before?.type === 'word' && before.upper === 'OVER') return true;
  if (before?.type !== 'word' || before.upper !== 'AS') return false;
  const lead = tokens[i - 4];
  return lead !== undefined && ((lead.type === 'word' && lead.upper === 'WINDOW') || lead.text === ',');
}

/** Token i opens `INTERVAL n unit PRECEDING|FOLLOWING` in a RANGE frame. */
function isRangeInterval(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i];
  const unit = tokens[i + 2];
  const dir = tokens[i + 3];
  if (t?.type !== 'word' || t.upper !== 'INTERVAL' || tokens[i + 1]?.type !== 'number') return false;
  if (unit?.type !== 'word' || !UNITS.has(unit.upper) || (dir?.upper !== 'PRECEDING' && dir?.upper !== 'FOLLOWING')) return false;
  for (let k = i - 1; k >= 0 && k >= i - 10; k--) {
    const p = tokens[k] as Token;
    if (p.type === 'word' && (p.upper === 'RANGE' || p.upper === 'ROWS')) return p.upper === 'RANGE';
    if (p.type === 'op' && (p.text === '(' || p.text === ')')) return false;
  }
  return false;
}

/** Token i is the PRECEDING of `BETWEEN ... AND [INTERVAL] n [unit] PRECEDING`. */
function isPrecedingEnd(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i];
  const interval = isRangeInterval(tokens, i - 3);
  const num = tokens[interval ? i - 2 : i - 1];
  const lead = interval ? i - 4 : i - 2;
  const and = tokens[lead];
  if (t?.type !== 'word' || t.upper !== 'PRECEDING' || num?.type !== 'number' || and?.type !== 'word' || and.upper !== 'AND') return false;
  for (let k = lead - 1; k >= 0 && k >= lead - 7; k--) {
    const p = tokens[k] as Token;
    if (p.type === 'word' && p.upper === 'BETWEEN') return tokens[k - 1]?.upper === 'ROWS' || tokens[k - 1]?.upper === 'RANGE';
  }
  return false;
}

/** The text replacing token i when it is the RANGE of a window frame, else undefined. */
function rangeFrameText(tokens: readonly Token[], i: number): string | undefined {
  const t = tokens[i];
  const next = tokens[i + 1];
  if (t === undefined || t.type !== 'word' || t.upper !== 'RANGE' || next === undefined) return undefined;
  if (!(next.type === 'number' || next.type === 'param' || (next.type === 'word' && FRAME_STARTS.has(next.upper)))) return undefined;
  let depth = 0;
  let ordered = false;
  for (let k = i - 1; k >= 0; k--) {
    const p = tokens[k] as Token;
    if (p.type === 'op' && p.text === ')') depth++;
    else if (p.type === 'op' && p.text === '(') {
      if (depth === 0) return `${ordered ? ',' : 'ORDER BY'} :${RANGE_PARAM}${intervalUnits(tokens, i)} ROWS`;
      depth--;
    } else if (depth === 0 && p.type === 'word' && p.upper === 'ORDER') ordered = true;
  }
  return undefined;
}

/** `_<unit|x>` per bound of the RANGE frame at i when one uses INTERVAL, else ''. */
function intervalUnits(tokens: readonly Token[], i: number): string {
  const units: string[] = ['x'];
  let depth = 0;
  let any = false;
  for (let k = i + 1; k < tokens.length; k++) {
    const p = tokens[k] as Token;
    if (p.type === 'op' && p.text === '(') depth++;
    else if (p.type === 'op' && p.text === ')' && depth-- === 0) break;
    else if (depth === 0 && p.type === 'word' && p.upper === 'AND') units.push('x');
    else if (depth === 0 && isRangeInterval(tokens, k)) {
      units[units.length - 1] = (tokens[k + 2] as Token).upper;
      any = true;
    }
  }
  return any ? `_${units.join('_')}` : '';
}

const BLOCK_ENDS = new Set(['UNION', 'EXCEPT', 'INTERSECT']);

/**
 * node-sql-parser reads a WINDOW clause only at the very end of a query block (after ORDER BY,
 * LIMIT and FOR UPDATE) and silently drops an ORDER BY / LIMIT written after it, where MySQL
 * puts it. The clause's tokens are moved to the end of their block (and the slot plan with
 * them, so `:pN` still names the N-th slot of the text sent).
 */
export function windowsLast(tokens: readonly Token[], plan: SlotPlan): { readonly tokens: readonly Token[]; readonly plan: SlotPlan } {
  if (!tokens.some((t) => t.type === 'word' && t.upper === 'WINDOW')) return { tokens, plan };
  let order = tokens.map((_t, i) => i);
  for (let k = 0; k < order.length; k++) {
    const t = tokens[order[k] as number] as Token;
    if (t.type !== 'word' || t.upper !== 'WINDOW') continue;
    const at = (j: number): Token | undefined => tokens[order[j] as number];
    const end = clauseEnd(at, k);
    const blockEnd = blockEndOf(at, end, order.length);
    if (end === undefined || blockEnd <= end) continue;
    order = [...order.slice(0, k), ...order.slice(end, blockEnd), ...order.slice(k, end), ...order.slice(blockEnd)];
  }
  const byToken = order.map((i) => plan.byToken[i]);
  return {
    tokens: order.map((i) => tokens[i] as Token),
    plan: { ...plan, byToken, slots: byToken.filter((s): s is Slot => s !== undefined) },
  };
}

/** One past `WINDOW name AS (...) [, name AS (...)]...` starting at k, or undefined. */
function clauseEnd(at: (j: number) => Token | undefined, k: number): number | undefined {
  let j = k + 1;
  for (;;) {
    if (at(j + 1)?.upper !== 'AS' || at(j + 2)?.text !== '(') return undefined;
    j += 2;
    let depth = 0;
    for (; at(j) !== undefined; j++) {
      const p = at(j) as Token;
      if (p.type === 'op' && p.text === '(') depth++;
      else if (p.type === 'op' && p.text === ')' && --depth === 0) break;
    }
    if (at(j) === undefined) return undefined;
    j++;
    if (at(j)?.text !== ',') return j;
    j++;
  }
}

/** The end of the query block the tokens from `from` belong to. */
function blockEndOf(at: (j: number) => Token | undefined, from: number | undefined, n: number): number {
  if (from === undefined) return -1;
  let depth = 0;
  for (let j = from; j < n; j++) {
    const p = at(j) as Token;
    if (p.type === 'op' && p.text === '(') depth++;
    else if (p.type === 'op' && p.text === ')') {
      if (depth === 0) return j;
      depth--;
    } else if (depth === 0 && p.type === 'word' && BLOCK_ENDS.has(p.upper)) return j;
  }
  return n;
}
