/** ORDER BY / LIMIT on top of a plan: Sort, TopN (ORDER BY + LIMIT) or Limit. */
import type { Expr, Limit } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { PlanNode, SortItem } from './nodes.js';
import { isConstExpr } from './expr-utils.js';

export function addOrderLimit(child: PlanNode, items: readonly SortItem[], limit: Limit | undefined): PlanNode {
  if (limit !== undefined) checkLimit(limit);
  const offset: Expr | null = limit?.offset ?? null;
  if (items.length > 0 && limit !== undefined) {
    return { kind: 'topN', schema: child.schema, child, items, count: limit.count, offset };
  }
  if (items.length > 0) return { kind: 'sort', schema: child.schema, child, items };
  if (limit !== undefined) return { kind: 'limit', schema: child.schema, child, count: limit.count, offset };
  return child;
}

function checkLimit(limit: Limit): void {
  const ok = isConstExpr(limit.count) && (limit.offset === undefined || isConstExpr(limit.offset));
  if (!ok) throw SqlError.of('ER_WRONG_ARGUMENTS', 'LIMIT');
}
