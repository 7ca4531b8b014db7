/**
 * Parameter slots: which tokens become `param` nodes. `?` placeholders always do (numbered in
 * text order); with `lift`, literals in value positions do too (the statement-cache digest
 * replaces exactly those literals with `?`).
 */
import type { Value } from '../../types/index.js';
import { isLiteralToken, type Token } from './lexer.js';
import { selectLists } from './select-lists.js';

export type Slot =
  | { readonly kind: 'placeholder'; readonly index: number }
  | { readonly kind: 'lifted'; readonly index: number; readonly value: Value };

export interface SlotPlan {
  /** Slot per token index (undefined: not a slot). */
  readonly byToken: ReadonlyArray<Slot | undefined>;
  /** Slots in text order. */
  readonly slots: readonly Slot[];
  readonly placeholders: number;
  readonly lifted: readonly Value[];
}

const NO_LIFT_AFTER = new Set(['SEPARATOR', 'DATE', 'TIME', 'TIMESTAMP', 'ESCAPE', 'INTERVAL', 'BY', 'COLLATE', 'USING', 'AGAINST']);
const TYPE_WORDS = new Set([
  'CHAR', 'VARCHAR', 'DECIMAL', 'NUMERIC', 'DEC', 'BINARY', 'VARBINARY', 'DATETIME', 'TIME', 'TIMESTAMP', 'FLOAT',
  'DOUBLE', 'NCHAR', 'SIGNED', 'UNSIGNED', 'INT', 'INTEGER',
]);

export function planSlots(sql: string, tokens: readonly Token[], lift: boolean): SlotPlan {
  const noLift = lift ? selectItemTokens(sql, tokens) : undefined;
  const byToken: Array<Slot | undefined> = new Array<Slot | undefined>(tokens.length);
  const slots: Slot[] = [];
  const lifted: Value[] = [];
  let placeholders = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    let slot: Slot | undefined;
    if (t.type === 'param') slot = { kind: 'placeholder', index: placeholders++ };
    else if (noLift !== undefined && isLiteralToken(t) && !noLift.has(i) && liftable(tokens, i)) {
      slot = { kind: 'lifted', index: lifted.length, value: t.value };
      lifted.push(t.value);
    }
    byToken[i] = slot;
    if (slot) slots.push(slot);
  }
  return { byToken, slots, placeholders, lifted };
}

/**
 * Token indexes inside select items: their literals stay in the text. Unaliased, they label the
 * column; aliased or not, they decide the column's type (`SELECT 1 AS x` is a BIGINT column, which
 * a lifted parameter of unknown type could not be).
 */
function selectItemTokens(sql: string, tokens: readonly Token[]): Set<number> {
  const out = new Set<number>();
  for (const list of selectLists(sql, tokens)) {
    for (const item of list) {
      for (let i = item.first; i <= item.last; i++) out.add(i);
    }
  }
  return out;
}

function liftable(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (prev === undefined) return false;
  if (prev.type === 'word' && (NO_LIFT_AFTER.has(prev.upper) || prev.text.startsWith('_'))) return false;
  if (next !== undefined && next.type === 'string' && tokens[i]?.type === 'string') return false; // 'a' 'b'
  if (prev.type === 'string' && tokens[i]?.type === 'string') return false;
  if (prev.type === 'op' && (prev.text === '(' || prev.text === ',')) return !inTypeArgs(tokens, i);
  return true;
}

/** True when token i sits in `TYPE(` ... `)` preceded by AS or `,` (CAST/CONVERT targets). */
function inTypeArgs(tokens: readonly Token[], i: number): boolean {
  let depth = 0;
  for (let k = i - 1; k >= 0 && k >= i - 6; k--) {
    const t = tokens[k];
    if (t === undefined) return false;
    if (t.type === 'op' && t.text === ')') depth++;
    else if (t.type === 'op' && t.text === '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const type = tokens[k - 1];
      const before = tokens[k - 2];
      if (type === undefined || type.type !== 'word' || !TYPE_WORDS.has(type.upper)) return false;
      return before !== undefined && ((before.type === 'word' && before.upper === 'AS') || before.text === ',');
    }
  }
  return false;
}

/**
 * The digest: tokens joined (a single space where the source had whitespace or a comment),
 * lifted literals as `?`. Case is kept: identifiers are case-sensitive and unaliased select
 * items label columns with their original spelling.
 */
export function digestOf(sql: string, tokens: readonly Token[], plan: SlotPlan): string {
  const parts: string[] = [];
  let prevEnd = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    if (prevEnd >= 0 && t.start !== prevEnd) parts.push(' ');
    parts.push(plan.byToken[i]?.kind === 'lifted' ? '?' : t.text);
    prevEnd = t.end;
  }
  return parts.join('');
}
