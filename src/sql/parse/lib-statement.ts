/** SELECT / INSERT / REPLACE / UPDATE / DELETE through node-sql-parser, and lone expressions. */
import type { Expr, Statement } from './ast.js';
import { ConvCtx } from './conv-context.js';
import { convertDelete, convertInsert, convertUpdate } from './convert-dml.js';
import { convertExpr } from './convert-expr.js';
import { convertSelect } from './convert-select.js';
import { isObj, objs, typeOf, type Obj } from './guards.js';
import { astify, rewriteForLib } from './lib.js';
import { hasIgnoreModifier } from './lib-rewrites.js';
import type { Token } from './lexer.js';
import { notSupported } from './parse-error.js';
import { selectLists } from './select-lists.js';
import { windowsLast } from './window-rewrite.js';
import { planSlots, type SlotPlan } from './slots.js';

export interface LibParse {
  readonly stmt: Statement;
  readonly plan: SlotPlan;
  /** False when a lifted literal had to stay literal (only meaningful with asParams). */
  readonly cacheable: boolean;
  /** The same statement with every lifted literal inlined (no second node-sql-parser call). */
  readonly inlined: () => Statement;
}

/**
 * Parses with literals lifted into `:pN` (node-sql-parser never sees literal text), falling
 * back to the literal text when the lifted form does not parse.
 */
export function parseWithLib(sql: string, tokens: readonly Token[], asParams: boolean): LibParse {
  let plan = planSlots(sql, tokens, true);
  let lib = windowsLast(tokens, plan);
  let ast: unknown;
  try {
    ast = astify(sql, lib.tokens, rewriteForLib(lib.tokens, lib.plan));
  } catch {
    plan = planSlots(sql, tokens, false);
    lib = windowsLast(tokens, plan);
    ast = astify(sql, lib.tokens, rewriteForLib(lib.tokens, lib.plan));
  }
  const node = single(ast);
  const lists = selectLists(sql, tokens);
  const ctx = new ConvCtx(sql, lib.plan, asParams, lists);
  const ignore = hasIgnoreModifier(tokens);
  const stmt = convertStatement(node, ctx, ignore);
  const inlined = (): Statement => (asParams ? convertStatement(node, new ConvCtx(sql, lib.plan, false, lists), ignore) : stmt);
  return { stmt, plan, cacheable: !ctx.uncacheable, inlined };
}

function single(ast: unknown): Obj {
  if (Array.isArray(ast)) {
    const list = objs(ast as unknown[]);
    const first = list[0];
    if (list.length !== 1 || first === undefined) throw notSupported('multiple statements');
    return first;
  }
  if (!isObj(ast)) throw notSupported('statement');
  return ast;
}

/** `ignore`: UPDATE IGNORE (lib-rewrites.ts drops the modifier before node-sql-parser sees it). */
function convertStatement(node: Obj, ctx: ConvCtx, ignore: boolean): Statement {
  switch (typeOf(node)) {
    case 'select':
      return convertSelect(node, ctx);
    case 'insert':
    case 'replace':
      return convertInsert(node, ctx);
    case 'update':
      return ignore ? { ...convertUpdate(node, ctx), ignore } : convertUpdate(node, ctx);
    case 'delete':
      return convertDelete(node, ctx);
    default:
      throw notSupported(typeOf(node).toUpperCase() || 'statement');
  }
}

/**
 * One expression made of tokens [from, to) of a statement (SET values, SHOW ... WHERE,
 * DEFAULT (expr)). `?` inside are numbered after the `placeholderBase` earlier ones.
 */
export function parseExprTokens(sql: string, tokens: readonly Token[], from: number, to: number): Expr {
  const sub = tokens.slice(from, to);
  let base = 0;
  for (let i = 0; i < from; i++) if (tokens[i]?.type === 'param') base++;
  const plan = shiftPlaceholders(planSlots(sql, sub, false), base);
  const selectTok: Token = { type: 'word', start: 0, end: 0, text: 'SELECT', upper: 'SELECT', value: null };
  const rw = rewriteForLib([selectTok, ...sub], { ...plan, byToken: [undefined, ...plan.byToken] });
  const ast = single(astify(sql, [selectTok, ...sub], rw));
  const col = objs(Array.isArray(ast['columns']) ? (ast['columns'] as unknown[]) : [])[0];
  if (col === undefined || ast['from']) throw notSupported('expression');
  return convertExpr(col['expr'], new ConvCtx(sql, plan, false, []));
}

function shiftPlaceholders(plan: SlotPlan, base: number): SlotPlan {
  if (base === 0) return plan;
  const shift = (s: SlotPlan['slots'][number]): SlotPlan['slots'][number] =>
    s.kind === 'placeholder' ? { kind: 'placeholder', index: s.index + base } : s;
  return { ...plan, slots: plan.slots.map(shift), byToken: plan.byToken.map((s) => (s ? shift(s) : s)) };
}
