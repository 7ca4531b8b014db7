/**
 * Recursive CTE: the anchor's rows, then the recursive part run over the previous iteration's
 * rows (read by `cteRef`) until an iteration yields no (new, with UNION DISTINCT) rows; more
 * than @@cte_max_recursion_depth iterations is error 3636.
 */
import { SqlError } from '../../errors/index.js';
import type { PlanNode } from '../plan/index.js';
import type { ExecContext } from './context.js';
import { drain, fromRows, type ExecFactory, type Row } from './executor.js';
import { cteRows, withCteRows } from './subquery-context.js';
import { lazy } from './sort.js';
import { rowKey } from './value-key.js';

type CteNode = Extract<PlanNode, { kind: 'cteRecursive' }>;
type CteRefNode = Extract<PlanNode, { kind: 'cteRef' }>;

export function cteRecursiveFactory(node: CteNode, anchor: ExecFactory, recursive: ExecFactory): ExecFactory {
  return (ctx) => lazy(() => recurse(ctx, node, anchor, recursive));
}

export function cteRefFactory(node: CteRefNode): ExecFactory {
  return (ctx) => fromRows(cteRows(ctx, node.id).slice());
}

async function recurse(ctx: ExecContext, node: CteNode, anchor: ExecFactory, recursive: ExecFactory): Promise<Row[]> {
  const seen = new Set<string>();
  const keep = (rows: Row[]): Row[] => (node.distinct ? rows.filter((r) => fresh(seen, r)) : rows);
  const all = keep(await drain(anchor(ctx, Infinity)));
  const max = maxDepth(ctx);
  let work = all;
  for (let iteration = 1; work.length > 0; iteration++) {
    if (iteration > max) throw SqlError.of('ER_CTE_MAX_RECURSION_DEPTH', iteration);
    work = keep(await drain(recursive(withCteRows(ctx, node.id, work), Infinity)));
    for (const r of work) all.push(r);
  }
  return all;
}

function fresh(seen: Set<string>, r: Row): boolean {
  const k = rowKey(r);
  if (seen.has(k)) return false;
  seen.add(k);
  return true;
}

function maxDepth(ctx: ExecContext): number {
  try {
    const v = ctx.getVariable('session', 'cte_max_recursion_depth');
    const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number(v ?? 1000);
    return Number.isFinite(n) ? n : 1000;
  } catch {
    return 1000;
  }
}
