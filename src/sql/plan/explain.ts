/**
 * EXPLAIN in TiDB's tabular form: id, estRows, task, access object, operator info, with the
 * tree drawn by `└─` / `├─` indentation. Estimates are pseudo (no statistics).
 */
import type { IndexInfo, TableInfo } from '../../catalog/index.js';
import type { Expr } from '../parse/index.js';
import type { IndexJoinSpec, PlanNode, RangeSpec, ReaderNode } from './nodes.js';
import type { RowSchema } from './row-schema.js';
import { constText } from './expr-utils.js';
import { exprText } from './expr-text.js';
import { windowInfo, windowSortInfo } from './window-explain.js';
import { subqueryLine } from './explain-subquery.js';

export const EXPLAIN_COLUMNS = ['id', 'estRows', 'task', 'access object', 'operator info'] as const;

export interface Line {
  readonly name: string;
  readonly est: number;
  readonly task: 'root' | 'cop[tikv]';
  readonly access: string;
  readonly info: string;
  readonly children: readonly Line[];
  /** Info is this prefix + the first child's id (e.g. `data:` -> `data:TableRangeScan_4`). */
  readonly ref?: string;
}

/** A DML statement's top operator (`Insert`, `Update`, `Delete`) over an optional row source. */
export interface ExplainTop {
  readonly name: 'Insert' | 'Update' | 'Delete';
  readonly source?: PlanNode;
}

export function explainRows(plan: PlanNode | ExplainTop): string[][] {
  const ids = { n: 0 };
  const root = 'kind' in plan ? lineOf(plan) : dmlLine(plan);
  const rows: string[][] = [];
  emit(root, '', true, true, rows, ids);
  return rows;
}

function dmlLine(top: ExplainTop): Line {
  const children = top.source === undefined ? [] : [lineOf(top.source)];
  return { name: top.name, est: NaN, task: 'root', access: '', info: 'N/A', children };
}

function emit(l: Line, prefix: string, last: boolean, top: boolean, rows: string[][], ids: { n: number }): void {
  ids.n++;
  const branch = top ? '' : last ? '└─' : '├─';
  const est = Number.isNaN(l.est) ? 'N/A' : l.est.toFixed(2);
  const first = l.children[0];
  const info = l.ref !== undefined && first !== undefined ? `${l.ref}${first.name}_${ids.n + 1}` : l.info;
  rows.push([`${prefix}${branch}${l.name}_${ids.n}`, est, l.task, l.access, info]);
  const childPrefix = top ? '' : prefix + (last ? '  ' : '│ ');
  l.children.forEach((c, i) => emit(c, childPrefix, i === l.children.length - 1, false, rows, ids));
}

function lineOf(p: PlanNode): Line {
  const s = (e: Expr, schema: RowSchema = childSchema(p)): string => exprText(e, schema);
  switch (p.kind) {
    case 'pointGet':
    case 'batchPointGet':
    case 'tableScan':
    case 'indexScan':
      return readerLine(p);
    case 'dual':
      return { name: 'TableDual', est: p.rows, task: 'root', access: '', info: `rows:${p.rows}`, children: [] };
    case 'memTable':
      return { name: 'MemTableScan', est: 10000, task: 'root', access: `table:${p.table.name}`, info: '', children: [] };
    case 'selection': {
      const child = lineOf(p.child);
      return { name: 'Selection', est: child.est * 0.8, task: 'root', access: '', info: p.conditions.map((c) => s(c)).join(', '), children: [child] };
    }
    case 'projection': {
      const child = lineOf(p.child);
      return { name: 'Projection', est: child.est, task: 'root', access: '', info: p.exprs.map((e) => s(e)).join(', '), children: [child] };
    }
    case 'hashAgg': {
      const child = lineOf(p.child);
      const groups = p.groupBy.map((g) => s(g));
      const funcs = p.aggs.map((a, i) => `${a.name.toLowerCase()}(${a.distinct ? 'distinct ' : ''}${a.arg === null ? '1' : s(a.arg)})->Column#a${i}`);
      const info = [groups.length > 0 ? `group by:${groups.join(', ')}` : '', `funcs:${funcs.join(', ')}`].filter((x) => x !== '').join(', ');
      return { name: 'HashAgg', est: groups.length > 0 ? child.est * 0.8 : 1, task: 'root', access: '', info, children: [child] };
    }
    case 'distinct': {
      const child = lineOf(p.child);
      const cols = p.schema.columns.map((_, i) => `Column#${i}`).join(', ');
      return { name: 'HashAgg', est: child.est * 0.8, task: 'root', access: '', info: `group by:${cols}`, children: [child] };
    }
    case 'window': {
      const child = lineOf(p.child);
      const sort = windowSortInfo(p);
      const below: Line = sort === '' ? child : { name: 'Sort', est: child.est, task: 'root', access: '', info: sort, children: [child] };
      return { name: 'Window', est: child.est, task: 'root', access: '', info: windowInfo(p), children: [below] };
    }
    case 'sort': {
      const child = lineOf(p.child);
      return { name: 'Sort', est: child.est, task: 'root', access: '', info: p.items.map((o) => s(o.expr) + (o.desc ? ':desc' : '')).join(', '), children: [child] };
    }
    case 'topN': {
      const child = lineOf(p.child);
      const order = p.items.map((o) => s(o.expr) + (o.desc ? ':desc' : '')).join(', ');
      const info = `${order}, offset:${p.offset === null ? '0' : constText(p.offset)}, count:${constText(p.count)}`;
      return { name: 'TopN', est: limitEst(p.count, child.est), task: 'root', access: '', info, children: [child] };
    }
    case 'limit': {
      const child = lineOf(p.child);
      const info = `offset:${p.offset === null ? '0' : constText(p.offset)}, count:${constText(p.count)}`;
      return { name: 'Limit', est: limitEst(p.count, child.est), task: 'root', access: '', info, children: [child] };
    }
    case 'join': {
      const left = lineOf(p.left);
      const right = lineOf(p.right);
      const on = p.on.map((c) => s(c, p.schema)).join(', ');
      const info = `${p.joinType} join${on === '' ? '' : `, on:${on}`}`;
      // LATERAL: the right side re-runs per left row (TiDB's Apply, outer side first).
      if (p.indexJoin !== undefined) return indexJoinLine(p, p.indexJoin, left, info);
      if (p.lateral !== undefined) return { name: 'Apply', est: left.est, task: 'root', access: '', info, children: [{ ...left, name: `${left.name}(Build)` }, { ...right, name: `${right.name}(Probe)` }] };
      return { name: 'HashJoin', est: Math.max(left.est, right.est), task: 'root', access: '', info, children: [{ ...right, name: `${right.name}(Build)` }, { ...left, name: `${left.name}(Probe)` }] };
    }
    case 'apply':
    case 'union':
    case 'derived':
    case 'cteRecursive':
    case 'cteRef':
      return subqueryLine(p, lineOf);
  }
}

/** IndexJoin: the outer side drives (Build); the inner table is read by the outer keys (Probe). */
function indexJoinLine(p: Extract<PlanNode, { kind: 'join' }>, ij: IndexJoinSpec, outer: Line, info: string): Line {
  const table = `table:${ij.alias}`;
  const lock = ij.lock ? ', lock' : '';
  const inner = ij.columns.map((c) => `${ij.table.dbName}.${ij.alias}.${c.name}`);
  const outerKeys = ij.outerKeys.map((e) => exprText(e, p.left.schema));
  const range = `range: decided by [${inner.map((k, i) => `eq(${k}, ${outerKeys[i] ?? ''})`).join(' ')}], keep order:false`;
  let probe: Line;
  if (ij.index === null) {
    const scan: Line = { name: 'TableRangeScan', est: 1, task: 'cop[tikv]', access: table, info: range + lock, children: [] };
    probe = { name: 'TableReader', est: 1, task: 'root', access: '', info: '', ref: 'data:', children: [scan] };
  } else {
    const scan: Line = { name: 'IndexRangeScan(Build)', est: 1, task: 'cop[tikv]', access: `${table}, index:${indexText(ij.table, ij.index)}`, info: range, children: [] };
    const rows: Line = { name: 'TableRowIDScan(Probe)', est: 1, task: 'cop[tikv]', access: table, info: `keep order:false${lock}`, children: [] };
    probe = { name: 'IndexLookUp', est: 1, task: 'root', access: '', info: '', children: [scan, rows] };
  }
  if (ij.conds.length > 0) {
    probe = { name: 'Selection', est: 0.8, task: 'root', access: '', info: ij.conds.map((c) => exprText(c, p.right.schema)).join(', '), children: [probe] };
  }
  const keys = `outer key:${outerKeys.join(', ')}, inner key:${inner.join(', ')}`;
  const text = info.replace(/ join(, on:|$)/, ` join, ${keys}$1`);
  return { name: 'IndexJoin', est: outer.est, task: 'root', access: '', info: text, children: [{ ...outer, name: `${outer.name}(Build)` }, { ...probe, name: `${probe.name}(Probe)` }] };
}

function childSchema(p: PlanNode): RowSchema {
  return 'child' in p ? p.child.schema : p.schema;
}

function limitEst(count: Expr, est: number): number {
  const n = Number(constText(count));
  return Number.isFinite(n) ? Math.min(n, est) : est;
}

function readerLine(p: ReaderNode): Line {
  const table = `table:${p.alias}`;
  const lock = p.lock ? ', lock' : '';
  switch (p.kind) {
    case 'pointGet': {
      const access = p.index === null ? table : `${table}, index:${indexText(p.table, p.index)}`;
      const info = p.index === null ? `handle:${p.values.map(constText).join(', ')}${lock}` : lock.slice(2);
      return { name: 'Point_Get', est: 1, task: 'root', access, info, children: [] };
    }
    case 'batchPointGet': {
      const access = p.index === null ? table : `${table}, index:${indexText(p.table, p.index)}`;
      const keys = p.keys.map((k) => k.map(constText).join(' ')).join(' ');
      const info = `${p.index === null ? 'handle' : 'index'}:[${keys}], keep order:false, desc:false${lock}`;
      return { name: 'Batch_Point_Get', est: p.keys.length, task: 'root', access, info, children: [] };
    }
    case 'tableScan': {
      const full = p.ranges === null;
      const est = full ? 10000 : rangeEst(p.ranges);
      const range = full ? 'keep order:false, stats:pseudo' : `range:${rangeText(p.ranges)}, keep order:false`;
      const scan: Line = { name: full ? 'TableFullScan' : 'TableRangeScan', est, task: 'cop[tikv]', access: table, info: range + lock, children: [] };
      return { name: 'TableReader', est, task: 'root', access: '', info: '', ref: 'data:', children: [scan] };
    }
    case 'indexScan': {
      const est = rangeEst(p.ranges);
      const access = `${table}, index:${indexText(p.table, p.index)}`;
      const scan: Line = { name: 'IndexRangeScan', est, task: 'cop[tikv]', access, info: `range:${rangeText(p.ranges)}, keep order:false`, children: [] };
      if (p.covering) return { name: 'IndexReader', est, task: 'root', access: '', info: '', ref: 'index:', children: [scan] };
      const probe: Line = { name: 'TableRowIDScan', est, task: 'cop[tikv]', access: table, info: `keep order:false${lock}`, children: [] };
      return { name: 'IndexLookUp', est, task: 'root', access: '', info: '', children: [{ ...scan, name: 'IndexRangeScan(Build)' }, { ...probe, name: 'TableRowIDScan(Probe)' }] };
    }
  }
}

function indexText(table: TableInfo, index: IndexInfo): string {
  return `${index.name}(${index.columns.map((c) => table.columns[c.offset]?.name ?? c.name).join(', ')})`;
}

function rangeEst(r: RangeSpec): number {
  const points = r.points.reduce((n, p) => n * p.length, 1);
  const interval = r.lows.length + r.highs.length > 0;
  if (r.points.length === r.columns.length) return points;
  return points * (interval ? 250 : 10);
}

/** `[1,1] [2,2]`, `[10,+inf]`, `(NULL,5)`, `[?,?]` ... */
export function rangeText(r: RangeSpec): string {
  let prefixes: string[][] = [[]];
  for (const pts of r.points) {
    prefixes = prefixes.flatMap((pre) => pts.map((pt) => [...pre, pt.kind === 'null' ? 'NULL' : constText(pt.expr)]));
  }
  const hasInterval = r.lows.length + r.highs.length > 0;
  return prefixes
    .map((pre) => {
      const join = (extra: string): string => [...pre, ...(extra === '' ? [] : [extra])].join(' ');
      if (!hasInterval) return `[${join('')},${join('')}]`;
      const low = r.lows[0];
      const high = r.highs[0];
      const lo = low === undefined ? `(${join('NULL')}` : `${low.inclusive ? '[' : '('}${join(constText(low.expr))}`;
      const hi = high === undefined ? `${join('+inf')}]` : `${join(constText(high.expr))}${high.inclusive ? ']' : ')'}`;
      return `${lo},${hi}`;
    })
    .join(' ');
}
