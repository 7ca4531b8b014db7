/**
 * A one-line plan for logs: operator names and access paths, no expressions or values, e.g.
 * `TopN(Selection(TableRangeScan(sbtest1)))`, `Update(IndexLookUp(sbtest1.k_1))`,
 * `HashJoin(TableFullScan(a), PointGet(b))`. Projections are left out (every SELECT has one).
 */
import type { ExplainTop } from './explain.js';
import type { PlanNode, ReaderNode } from './nodes.js';

export function planSummary(plan: PlanNode | ExplainTop): string {
  if ('kind' in plan) return nodeSummary(plan);
  return plan.source === undefined ? plan.name : `${plan.name}(${nodeSummary(plan.source)})`;
}

function nodeSummary(p: PlanNode): string {
  switch (p.kind) {
    case 'pointGet':
    case 'batchPointGet':
    case 'tableScan':
    case 'indexScan':
      return readerSummary(p);
    case 'dual':
      return 'TableDual';
    case 'memTable':
      return `MemTableScan(${p.table.name})`;
    case 'projection':
      return nodeSummary(p.child);
    case 'selection':
      return `Selection(${nodeSummary(p.child)})`;
    case 'hashAgg':
    case 'distinct':
      return `HashAgg(${nodeSummary(p.child)})`;
    case 'sort':
      return `Sort(${nodeSummary(p.child)})`;
    case 'window':
      return `Window(${nodeSummary(p.child)})`;
    case 'topN':
      return `TopN(${nodeSummary(p.child)})`;
    case 'limit':
      return `Limit(${nodeSummary(p.child)})`;
    case 'join':
      if (p.indexJoin !== undefined) return `IndexJoin(${nodeSummary(p.left)}, ${p.indexJoin.index === null ? p.indexJoin.table.name : `${p.indexJoin.table.name}.${p.indexJoin.index.name}`})`;
      return `HashJoin(${nodeSummary(p.left)}, ${nodeSummary(p.right)})`;
    case 'apply':
      return `Apply(${[p.child, ...p.subqueries.map((s) => s.plan)].map(nodeSummary).join(', ')})`;
    case 'union':
      return `Union(${p.children.map(nodeSummary).join(', ')})`;
    case 'derived':
      return nodeSummary(p.child);
    case 'cteRecursive':
      return `CTE(${nodeSummary(p.anchor)}, ${nodeSummary(p.recursive)})`;
    case 'cteRef':
      return `CTETable(${p.name})`;
  }
}

function readerSummary(p: ReaderNode): string {
  const table = p.table.name;
  switch (p.kind) {
    case 'pointGet':
      return `PointGet(${p.index === null ? table : `${table}.${p.index.name}`})`;
    case 'batchPointGet':
      return `BatchPointGet(${p.index === null ? table : `${table}.${p.index.name}`})`;
    case 'tableScan':
      return `${p.ranges === null ? 'TableFullScan' : 'TableRangeScan'}(${table})`;
    case 'indexScan':
      return `${p.covering ? 'IndexRangeScan' : 'IndexLookUp'}(${table}.${p.index.name})`;
  }
}
