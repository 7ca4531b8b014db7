/** node-sql-parser expression nodes -> ast.ts `Expr`. */
import { Decimal, makeType, type Value } from '../../types/index.js';
import type { AggName, BinaryOp, Expr, OrderItem, SelectStmt } from './ast.js';
import type { ConvCtx } from './conv-context.js';
import { withCollate } from './convert-collate.js';
import { negate } from './fast-insert.js';
import { arr, isObj, obj, objs, str, typeOf, type Obj } from './guards.js';
import { hexBytes, bitBytes } from './lexer.js';
import { normalizeCall } from './func-args.js';
import { BINARY_FN } from './lib-rewrites.js';
import { notSupported } from './parse-error.js';
import { windowCall, type WindowConv } from './convert-window.js';
import { castTarget } from './convert-cast.js';

export { castTarget } from './convert-cast.js';

/** Set by convert-select to break the import cycle (subqueries inside expressions). */
export const subqueryHook: { convert: (ast: Obj, ctx: ConvCtx) => SelectStmt } = {
  convert: () => {
    throw notSupported('subquery');
  },
};

const BINARY_OPS: Readonly<Record<string, BinaryOp>> = {
  '+': '+', '-': '-', '*': '*', '/': '/', DIV: 'DIV', '%': '%', MOD: '%',
  // lib-rewrites.ts sends `<=>` as `!=` and `!=` as `<>`
  '=': '=', '<=>': '<=>', '<>': '<>', '!=': '<=>', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
  AND: 'AND', '&&': 'AND', OR: 'OR', '||': 'OR', XOR: 'XOR',
  '&': '&', '|': '|', '^': '^', '<<': '<<', '>>': '>>',
};
const AGGS: ReadonlySet<string> = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'GROUP_CONCAT', 'BIT_AND', 'BIT_OR', 'BIT_XOR']);
/** Rewritten by lib.ts: `SUM(DISTINCT x)` arrives as `shale_distinct_sum(x)`. */
export const DISTINCT_AGG_PREFIX = 'SHALE_DISTINCT_';

export function convertExpr(node: unknown, ctx: ConvCtx): Expr {
  const e = convertBareExpr(node, ctx);
  return isObj(node) ? withCollate(node, e) : e;
}

function convertBareExpr(node: unknown, ctx: ConvCtx): Expr {
  if (!isObj(node)) throw notSupported('expression');
  if (isObj(node['ast'])) return { kind: 'subquery', query: subqueryHook.convert(node['ast'], ctx) };
  const type = typeOf(node);
  switch (type) {
    case 'param':
      return ctx.param(str(node, 'value') ?? '');
    case 'column_ref':
      return columnRef(node);
    case 'number':
    case 'bigint':
      return numberLiteral(node['value']);
    case 'single_quote_string':
    case 'double_quote_string':
    case 'string':
    case 'natural_string':
      return { kind: 'literal', value: unquote(String(node['value'] ?? '')) };
    case 'hex_string':
    case 'full_hex_string':
      return { kind: 'literal', value: hexLiteral(str(node, 'value') ?? '') };
    case 'bit_string':
      return { kind: 'literal', value: bitBytes(str(node, 'value') ?? '') };
    case 'bool':
      return { kind: 'literal', value: node['value'] === true ? 1n : 0n };
    case 'null':
      return { kind: 'literal', value: null };
    case 'var':
      return variable(node);
    case 'binary_expr':
      return binary(node, ctx);
    case 'unary_expr':
      return unary(node, ctx);
    case 'case':
      return caseExpr(node, ctx);
    case 'cast':
      return { kind: 'cast', expr: convertExpr(node['expr'], ctx), to: castTarget(objs(arr(node, 'target'))[0]) };
    case 'function':
      return func(node, ctx);
    case 'aggr_func':
      return aggregate(node, ctx);
    case 'interval':
      return { kind: 'interval', expr: ctx.restrict(() => convertExpr(node['expr'], ctx)), unit: (str(node, 'unit') ?? '').toUpperCase() };
    case 'expr_list':
      return rowExpr(node, ctx);
    case 'extract':
      return extractExpr(node, ctx);
    default:
      throw notSupported(type || 'expression');
  }
}

export function convertExprs(list: readonly unknown[], ctx: ConvCtx): Expr[] {
  return list.map((e) => convertExpr(e, ctx));
}

/**
 * node-sql-parser returns a string literal's body as written; the text it saw was produced by
 * lib.ts `quote()` (backslashes doubled, then quotes doubled), so undo exactly that.
 */
function unquote(body: string): string {
  return body.replace(/\\\\|''/g, (m) => (m === "''" ? "'" : '\\'));
}

function numberValue(v: unknown): Value {
  if (typeof v === 'bigint') return v;
  const text = String(v);
  if (/^-?\d+$/.test(text)) return BigInt(text);
  if (/e/i.test(text)) return Number(text);
  return new Decimal(text);
}

/**
 * A decimal literal keeps its written scale (`1.50` is DECIMAL(3,2) and prints 1.50): when the
 * Decimal value lost trailing zeros, the literal is wrapped in a cast to its written type.
 */
function numberLiteral(v: unknown): Expr {
  const value = numberValue(v);
  if (!(value instanceof Decimal)) return { kind: 'literal', value };
  const frac = /\.(\d*)$/.exec(String(v))?.[1] ?? '';
  if (frac.length <= value.decimalPlaces()) return { kind: 'literal', value };
  const digits = String(v).replace(/[^0-9]/g, '').replace(/^0+(?=\d)/, '').length;
  return { kind: 'cast', expr: { kind: 'literal', value }, to: makeType('decimal', { length: Math.max(digits, frac.length + 1), scale: frac.length }) };
}

/** `EXTRACT(unit FROM d)` -> `EXTRACT('UNIT', d)` (functions/datetime-units.ts). */
function extractExpr(node: Obj, ctx: ConvCtx): Expr {
  const args = obj(node, 'args') ?? {};
  const unit = (str(args, 'field') ?? '').toUpperCase();
  return { kind: 'func', name: 'EXTRACT', args: [{ kind: 'literal', value: unit }, convertExpr(args['source'], ctx)] };
}

function hexLiteral(digits: string): Uint8Array {
  return hexBytes(digits.length % 2 ? '0' + digits : digits);
}

/** Name of a column_ref's column (a string, or `{ expr: { value } }` in newer node-sql-parser). */
export function columnName(node: Obj): string {
  const c = node['column'];
  if (typeof c === 'string') return c;
  if (isObj(c)) {
    const e = obj(c, 'expr');
    const v = e ? e['value'] : undefined;
    if (typeof v === 'string') return v;
  }
  throw notSupported('column reference');
}

function columnRef(node: Obj): Expr {
  const name = columnName(node);
  const table = qualifier(node, 'table');
  const db = qualifier(node, 'db');
  if (name === '*') throw notSupported('* in this position');
  return { kind: 'column', name, ...(table ? { table } : {}), ...(db ? { db } : {}) };
}

/** A column_ref's table or db: a string, or `{ type: 'backticks_quote_string', value }` in select items. */
function qualifier(node: Obj, key: string): string | undefined {
  const v = node[key];
  if (typeof v === 'string') return v || undefined;
  const quoted = isObj(v) ? v['value'] : undefined;
  return typeof quoted === 'string' && quoted !== '' ? quoted : undefined;
}

function variable(node: Obj): Expr {
  const name = str(node, 'name') ?? '';
  const members = arr(node, 'members').filter((m): m is string => typeof m === 'string');
  if (str(node, 'prefix') === '@') return { kind: 'variable', scope: 'user', name: [name, ...members].join('.') };
  const scopeWord = name.toLowerCase();
  if (members.length > 0 && (scopeWord === 'session' || scopeWord === 'global' || scopeWord === 'local')) {
    const scope = scopeWord === 'global' ? 'global' : 'session';
    return { kind: 'variable', scope, name: members.join('.').toLowerCase() };
  }
  return { kind: 'variable', scope: 'default', name: [name, ...members].join('.').toLowerCase() };
}

function binary(node: Obj, ctx: ConvCtx): Expr {
  const op = (str(node, 'operator') ?? '').toUpperCase();
  const left = (): Expr => convertExpr(node['left'], ctx);
  const right = isObj(node['right']) ? node['right'] : {};
  switch (op) {
    case 'IS':
    case 'IS NOT':
      return isExpr(left(), right, op === 'IS NOT');
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const [low, high] = convertExprs(arr(right, 'value'), ctx);
      if (!low || !high) throw notSupported('BETWEEN');
      return { kind: 'between', expr: left(), low, high, not: op === 'NOT BETWEEN' };
    }
    case 'IN':
    case 'NOT IN':
      return inExpr(left(), right, op === 'NOT IN', ctx);
    case 'LIKE':
    case 'NOT LIKE':
      return likeExpr(left(), right, op === 'NOT LIKE', ctx);
    case 'REGEXP':
    case 'RLIKE':
    case 'NOT REGEXP':
    case 'NOT RLIKE':
    case 'REGEXP BINARY':
    case 'RLIKE BINARY':
    case 'NOT REGEXP BINARY':
    case 'NOT RLIKE BINARY': {
      const pattern = convertExpr(right, ctx);
      const bin: Expr = { kind: 'cast', expr: pattern, to: makeType('varbinary', { length: -1 }) };
      const call: Expr = { kind: 'func', name: 'REGEXP', args: [left(), op.endsWith('BINARY') ? bin : pattern] };
      return op.startsWith('NOT') ? { kind: 'unary', op: 'NOT', operand: call } : call;
    }
    case '->':
    case '->>': {
      // MySQL: `c->p` is JSON_EXTRACT(c, p) and `c->>p` is JSON_UNQUOTE(JSON_EXTRACT(c, p)).
      const call: Expr = { kind: 'func', name: 'JSON_EXTRACT', args: [left(), convertExpr(right, ctx)] };
      return op === '->' ? call : { kind: 'func', name: 'JSON_UNQUOTE', args: [call] };
    }
  }
  const mapped = BINARY_OPS[op];
  if (mapped === undefined) throw notSupported(op);
  const quantified = quantifiedSubquery(mapped, left, right, ctx);
  if (quantified !== undefined) return quantified;
  return { kind: 'binary', op: mapped, left: left(), right: convertExpr(right, ctx) };
}

const QUANTIFIABLE: ReadonlySet<BinaryOp> = new Set(['=', '<>', '<', '<=', '>', '>=']);

/** `x op ANY|SOME|ALL (SELECT ...)` arrives as a call of a function named ANY / SOME / ALL. */
function quantifiedSubquery(op: BinaryOp, left: () => Expr, right: Obj, ctx: ConvCtx): Expr | undefined {
  if (typeOf(right) !== 'function' || !QUANTIFIABLE.has(op)) return undefined;
  const name = funcName(right);
  if (name !== 'ANY' && name !== 'SOME' && name !== 'ALL') return undefined;
  const argsNode = obj(right, 'args');
  const q = (argsNode ? arr(argsNode, 'value') : [])[0];
  if (!isObj(q) || !isObj(q['ast'])) throw notSupported(name);
  const expr = left();
  const cmp = op as '=' | '<>' | '<' | '<=' | '>' | '>=';
  return { kind: 'inSubquery', expr, query: subqueryHook.convert(q['ast'], ctx), not: false, cmp, all: name === 'ALL' };
}

function isExpr(expr: Expr, right: Obj, not: boolean): Expr {
  const t = typeOf(right);
  if (t === 'null') return { kind: 'isNull', expr, not };
  if (t === 'bool') return { kind: 'isBool', expr, value: right['value'] === true, not };
  throw notSupported('IS');
}

function inExpr(expr: Expr, right: Obj, not: boolean, ctx: ConvCtx): Expr {
  const list = arr(right, 'value');
  const only = list[0];
  if (list.length === 1 && isObj(only) && isObj(only['ast'])) {
    return { kind: 'inSubquery', expr, query: subqueryHook.convert(only['ast'], ctx), not };
  }
  return { kind: 'in', expr, list: convertExprs(list, ctx), not };
}

function likeExpr(expr: Expr, right: Obj, not: boolean, ctx: ConvCtx): Expr {
  const esc = obj(right, 'escape');
  const pattern = convertExpr(right, ctx);
  if (esc === undefined) return { kind: 'like', expr, pattern, not };
  return { kind: 'like', expr, pattern, escape: convertExpr(esc['value'], ctx), not };
}

function unary(node: Obj, ctx: ConvCtx): Expr {
  const op = (str(node, 'operator') ?? '').toUpperCase();
  const operand = convertExpr(node['expr'], ctx);
  if (op === '-') return negate(operand);
  if (op === '+') return operand;
  if (op === 'NOT' || op === '!') return { kind: 'unary', op: 'NOT', operand };
  if (op === '~') return { kind: 'unary', op: '~', operand };
  if ((op === 'NOT EXISTS' || op === 'EXISTS') && operand.kind === 'subquery') {
    return { kind: 'exists', query: operand.query, not: op === 'NOT EXISTS' };
  }
  throw notSupported(op);
}

function caseExpr(node: Obj, ctx: ConvCtx): Expr {
  const operand = node['expr'] ? convertExpr(node['expr'], ctx) : undefined;
  const whens: Array<{ when: Expr; then: Expr }> = [];
  let elseExpr: Expr | undefined;
  for (const a of objs(arr(node, 'args'))) {
    if (typeOf(a) === 'when') whens.push({ when: convertExpr(a['cond'], ctx), then: convertExpr(a['result'], ctx) });
    else elseExpr = convertExpr(a['result'], ctx);
  }
  return { kind: 'case', whens, ...(operand ? { operand } : {}), ...(elseExpr ? { else: elseExpr } : {}) };
}

function funcName(node: Obj): string {
  const name = node['name'];
  if (typeof name === 'string') return name.toUpperCase();
  const parts = isObj(name) ? objs(arr(name, 'name')) : [];
  return parts.map((p) => String(p['value'] ?? '')).join('.').toUpperCase();
}

function func(node: Obj, ctx: ConvCtx): Expr {
  const argsNode = obj(node, 'args');
  const [name, rawArgs] = normalizeCall(funcName(node), argsNode ? arr(argsNode, 'value') : []);
  if (name === 'EXISTS') return existsExpr(rawArgs, ctx);
  if (name === 'CONVERT') return convertFunc(rawArgs, ctx);
  if (isObj(node['over'])) {
    const distinct = name.startsWith(DISTINCT_AGG_PREFIX);
    return windowCall(distinct ? name.slice(DISTINCT_AGG_PREFIX.length) : name, convertExprs(rawArgs, ctx), distinct, node['over'], windowConv(ctx));
  }
  if (name.startsWith(DISTINCT_AGG_PREFIX)) {
    const agg = name.slice(DISTINCT_AGG_PREFIX.length);
    const arg = convertExprs(rawArgs, ctx)[0] ?? null;
    if (!AGGS.has(agg)) throw notSupported(agg);
    return { kind: 'agg', name: agg as AggName, arg, distinct: true };
  }
  const args = convertExprs(rawArgs, ctx);
  const first = args[0];
  if (name === 'JSON_ARRAYAGG' && args.length === 1 && first !== undefined) return { kind: 'agg', name, arg: first, distinct: false };
  if (name === 'JSON_OBJECTAGG' && args.length === 2) {
    return { kind: 'agg', name, arg: { kind: 'func', name: 'JSON_OBJECT', args }, distinct: false };
  }
  if (name === 'VALUES' && first?.kind === 'column') return { kind: 'valuesRef', column: first.name };
  if (name === 'DEFAULT' && first?.kind === 'column') return { kind: 'default', column: first.name };
  // node-sql-parser reads `NOT (expr)` as a call of a function named NOT.
  if (name === 'NOT' && args.length === 1 && first !== undefined) return { kind: 'unary', op: 'NOT', operand: first };
  if (name === BINARY_FN && args.length === 1 && first !== undefined) return { kind: 'cast', expr: first, to: makeType('varbinary', { length: -1 }) };
  return { kind: 'func', name, args };
}

function existsExpr(rawArgs: readonly unknown[], ctx: ConvCtx): Expr {
  const q = rawArgs[0];
  if (!isObj(q) || !isObj(q['ast'])) throw notSupported('EXISTS');
  return { kind: 'exists', query: subqueryHook.convert(q['ast'], ctx), not: false };
}

function convertFunc(rawArgs: readonly unknown[], ctx: ConvCtx): Expr {
  const [value, target] = rawArgs;
  const expr = convertExpr(value, ctx);
  if (isObj(target) && typeOf(target) === 'datatype') return { kind: 'cast', expr, to: castTarget(target) };
  return { kind: 'cast', expr, to: makeType('varchar', { length: -1 }) };
}

function aggregate(node: Obj, ctx: ConvCtx): Expr {
  const name = (str(node, 'name') ?? '').toUpperCase();
  if (!AGGS.has(name)) throw notSupported(name);
  const args = obj(node, 'args') ?? {};
  const argNode = args['expr'];
  const arg = isObj(argNode) && typeOf(argNode) === 'star' ? null : convertExpr(argNode, ctx);
  const distinct = typeof args['distinct'] === 'string';
  if (isObj(node['over'])) return windowCall(name, arg === null ? [] : [arg], distinct, node['over'], windowConv(ctx));
  const sep = obj(args, 'separator');
  const sepValue = sep ? obj(sep, 'value') : undefined;
  const orderBy = ctx.restrict(() => convertOrderBy(arr(args, 'orderby'), ctx));
  return {
    kind: 'agg',
    name: name as AggName,
    arg,
    distinct,
    ...(sepValue ? { separator: String(sepValue['value'] ?? '') } : {}),
    ...(orderBy.length > 0 ? { orderBy } : {}),
  };
}

function rowExpr(node: Obj, ctx: ConvCtx): Expr {
  const items = convertExprs(arr(node, 'value'), ctx);
  const only = items[0];
  if (items.length === 1 && only !== undefined) return only;
  return { kind: 'row', items };
}

export function windowConv(ctx: ConvCtx): WindowConv {
  return { expr: (n) => convertExpr(n, ctx), orderBy: (list) => ctx.restrict(() => convertOrderBy(list, ctx)) };
}

export function convertOrderBy(list: readonly unknown[], ctx: ConvCtx): OrderItem[] {
  return objs(list).map((o) => ({ expr: convertExpr(o['expr'], ctx), desc: (str(o, 'type') ?? '').toUpperCase() === 'DESC' }));
}
