/**
 * node-sql-parser `over` / WINDOW clause -> ast-window.ts. node-sql-parser only knows ROWS
 * frames: lib.ts rewrites `RANGE` to `ROWS` after an extra ORDER BY item `:shale_range`, which
 * is removed here and turns the frame back into RANGE.
 */
import type { Expr, OrderItem } from './ast.js';
import type { FrameBound, NamedWindow, WindowExpr, WindowFrame, WindowFuncName, WindowSpec } from './ast-window.js';
import { RANGE_PARAM, WINDOW_REF_PREFIX } from './window-rewrite.js';
import { arr, isObj, obj, objs, str, typeOf, type Obj } from './guards.js';
import { notSupported } from './parse-error.js';
import { Decimal, type Value } from '../../types/index.js';

/** The expression converters of convert-expr (passed in to avoid an import cycle). */
export interface WindowConv {
  readonly expr: (node: unknown) => Expr;
  readonly orderBy: (list: readonly unknown[]) => OrderItem[];
}

const NON_AGG: ReadonlySet<string> = new Set([
  'ROW_NUMBER', 'RANK', 'DENSE_RANK', 'PERCENT_RANK', 'CUME_DIST', 'NTILE', 'LAG', 'LEAD', 'FIRST_VALUE', 'LAST_VALUE', 'NTH_VALUE',
]);
const AGG: ReadonlySet<string> = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'BIT_AND', 'BIT_OR', 'BIT_XOR', 'JSON_ARRAYAGG', 'JSON_OBJECTAGG']);

/** `name(args) OVER ...`; `distinct` for `AGG(DISTINCT x) OVER ...` (not supported by MySQL either). */
export function windowCall(name: string, args: readonly Expr[], distinct: boolean, over: unknown, conv: WindowConv): WindowExpr {
  if (distinct) throw notSupported('<window function>(DISTINCT ..)');
  if (name === 'GROUP_CONCAT') throw notSupported('group_concat as window function');
  if (!NON_AGG.has(name) && !AGG.has(name)) throw notSupported(`${name.toLowerCase()} as window function`);
  // As under GROUP BY, JSON_OBJECTAGG(k, v) aggregates JSON_OBJECT(k, v).
  const callArgs: readonly Expr[] = name === 'JSON_OBJECTAGG' && args.length === 2 ? [{ kind: 'func', name: 'JSON_OBJECT', args }] : args;
  return { kind: 'window', name: name as WindowFuncName, args: callArgs, over: windowOver(over, conv) };
}

function windowOver(over: unknown, conv: WindowConv): WindowSpec | string {
  const w = isObj(over) ? over['as_window_specification'] : undefined;
  if (typeof w === 'string') return w;
  if (!isObj(w)) throw notSupported('window specification');
  return windowSpec(obj(w, 'window_specification') ?? {}, conv);
}

function windowSpec(spec: Obj, conv: WindowConv): WindowSpec {
  if (typeof spec['name'] === 'string') throw notSupported('window specification referring to another window');
  const rawPartition = objs(arr(spec, 'partitionby'));
  const base = baseRef(rawPartition[0]);
  const partitionBy = rawPartition.slice(base === undefined ? 0 : 1).map((p) => conv.expr(p['expr']));
  const rawOrder = objs(arr(spec, 'orderby'));
  const marker = rawOrder.map(rangeMarker).find((m) => m !== undefined);
  const orderBy = conv.orderBy(rawOrder.filter((o) => rangeMarker(o) === undefined));
  const frameNode = obj(spec, 'window_frame_clause');
  const frame = frameNode === undefined ? undefined : windowFrame(frameNode, marker === undefined ? 'rows' : 'range', marker ?? []);
  return { partitionBy, orderBy, ...(frame ? { frame } : {}), ...(base !== undefined ? { base } : {}) };
}

/** The INTERVAL units per bound of window-rewrite.ts's RANGE marker (`x`: none); undefined if `o` is no marker. */
function rangeMarker(o: Obj): string[] | undefined {
  const e = obj(o, 'expr');
  const v = e !== undefined && typeOf(e) === 'param' ? e['value'] : undefined;
  if (v === RANGE_PARAM) return [];
  if (typeof v !== 'string' || !v.startsWith(`${RANGE_PARAM}_`)) return undefined;
  return v.slice(RANGE_PARAM.length + 1).split('_');
}

/** The base window name window-rewrite.ts encoded as a first PARTITION BY item. */
function baseRef(item: Obj | undefined): string | undefined {
  const e = item === undefined ? undefined : obj(item, 'expr');
  const v = e !== undefined && typeOf(e) === 'param' ? e['value'] : undefined;
  if (typeof v !== 'string' || !v.startsWith(WINDOW_REF_PREFIX)) return undefined;
  return Buffer.from(v.slice(WINDOW_REF_PREFIX.length), 'hex').toString('utf8');
}

function windowFrame(node: Obj, unit: WindowFrame['unit'], units: readonly string[]): WindowFrame {
  if (typeOf(node) === 'rows') return { unit, start: frameBound(node['expr'], units[0]), end: { kind: 'currentRow' } };
  if (typeOf(node) === 'binary_expr' && (str(node, 'operator') ?? '').toUpperCase() === 'BETWEEN') {
    const [a, b] = arr(obj(node, 'right') ?? {}, 'value');
    return { unit, start: frameBound(a, units[0]), end: frameBound(b, units[1]) };
  }
  throw notSupported('window frame');
}

/** One bound; `intervalUnit` (not `x`) makes its offset `INTERVAL n unit`. */
function frameBound(node: unknown, intervalUnit: string | undefined): FrameBound {
  const text = isObj(node) ? String(node['value'] ?? '').trim().toUpperCase().replace(/\s+/g, ' ') : '';
  if (text === 'UNBOUNDED PRECEDING') return { kind: 'unboundedPreceding' };
  if (text === 'UNBOUNDED FOLLOWING') return { kind: 'unboundedFollowing' };
  if (text === 'CURRENT ROW') return { kind: 'currentRow' };
  const m = /^([-+]?[0-9.]+(?:E[-+]?\d+)?) (PRECEDING|FOLLOWING)$/.exec(text);
  if (m === null) throw notSupported('window frame bound');
  const text0 = m[1] ?? '0';
  // window-rewrite.ts sends `n PRECEDING` as a frame end as `-n FOLLOWING`.
  const negative = text0.startsWith('-');
  const amount: Expr = { kind: 'literal', value: numberOf(negative ? text0.slice(1) : text0) };
  const offset: Expr = intervalUnit === undefined || intervalUnit === 'x' ? amount : { kind: 'interval', expr: amount, unit: intervalUnit };
  return { kind: (m[2] === 'PRECEDING') !== negative ? 'preceding' : 'following', offset };
}

function numberOf(text: string): Value {
  if (/^[-+]?\d+$/.test(text)) return BigInt(text);
  if (/E/.test(text)) return Number(text);
  return new Decimal(text);
}

/** `WINDOW w AS (...), ...`; 3591 when a name is defined twice. */
export function windowClause(node: unknown, conv: WindowConv): NamedWindow[] {
  const list = isObj(node) ? objs(arr(node, 'expr')) : [];
  const out: NamedWindow[] = [];
  for (const item of list) {
    const name = str(item, 'name') ?? '';
    const w = item['as_window_specification'];
    if (!isObj(w)) throw notSupported('window specification referring to another window');
    out.push({ name, spec: { ...windowSpec(obj(w, 'window_specification') ?? {}, conv), name } });
  }
  return out;
}
