/** EXPLAIN lines of the subquery operators: Apply, Union, derived tables and CTEs. */
import type { Line } from './explain.js';
import type { PlanNode } from './nodes.js';

type SubqueryNode = Extract<PlanNode, { kind: 'apply' | 'union' | 'derived' | 'cteRecursive' | 'cteRef' }>;

export function subqueryLine(p: SubqueryNode, lineOf: (p: PlanNode) => Line): Line {
  switch (p.kind) {
    case 'apply': {
      const child = lineOf(p.child);
      const subs = p.subqueries.map((s) => lineOf(s.plan));
      const correlated = p.subqueries.some((s) => s.outer.length > 0);
      const info = `${correlated ? 'correlated' : 'uncorrelated'} subqueries:${p.subqueries.length}`;
      return { name: 'Apply', est: child.est, task: 'root', access: '', info, children: [child, ...subs] };
    }
    case 'union': {
      const children = p.children.map(lineOf);
      const est = children.reduce((n, c) => n + c.est, 0);
      const info = p.distinctUpTo > 0 ? `distinct:${p.distinctUpTo}` : '';
      return { name: 'Union', est, task: 'root', access: '', info, children };
    }
    case 'derived':
      return lineOf(p.child);
    case 'cteRecursive': {
      const anchor = lineOf(p.anchor);
      const rec = lineOf(p.recursive);
      return { name: 'CTEFullScan', est: anchor.est, task: 'root', access: `CTE:${p.name}`, info: 'recursive', children: [anchor, rec] };
    }
    case 'cteRef':
      return { name: 'CTETable', est: 10000, task: 'root', access: `CTE:${p.name}`, info: '', children: [] };
  }
}
