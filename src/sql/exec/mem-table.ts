/** MemTableScan: the rows of an information_schema table, computed when the statement first reads it. */
import { virtualTableName, type PlanNode } from '../plan/index.js';
import type { ExecFactory } from './executor.js';
import { lazy } from './sort.js';

type MemTableNode = Extract<PlanNode, { kind: 'memTable' }>;

export function memTableFactory(node: MemTableNode): ExecFactory {
  const name = virtualTableName(node.table);
  return (ctx) => lazy(() => ctx.virtualRows(name));
}
