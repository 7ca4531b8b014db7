/** Window: sorts its input by PARTITION BY + ORDER BY and appends each window function's value. */
import type { PlanNode } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import { drain, type ExecFactory, type Row } from './executor.js';
import { lazy } from './sort.js';
import { compileWindowFunc } from './window-funcs.js';
import { compileWindowKey, forEachPartition } from './window-partition.js';

type WindowNode = Extract<PlanNode, { kind: 'window' }>;

export function windowFactory(node: WindowNode, child: ExecFactory): ExecFactory {
  const schema = node.child.schema;
  const partEvals = node.partitionBy.map((e) => compileWindowKey(e, schema));
  const orderEvals = node.orderBy.map((o) => compileWindowKey(o.expr, schema));
  const dirs = node.orderBy.map((o) => (o.desc ? -1 : 1));
  const desc = node.orderBy[0]?.desc === true;
  const funcs = node.funcs.map((f) => compileWindowFunc(f, schema, desc));
  // Readers carry a hidden trailing handle slot: the function values go right after the schema's columns.
  const width = schema.width;
  return (ctx) =>
    lazy(async () => {
      const evals = funcs.map((f) => f(ctx));
      const rows = await drain(child(ctx, Infinity));
      const out: Row[] = [];
      forEachPartition(rows, ctx, partEvals, orderEvals, dirs, (p) => {
        const cols = evals.map((ev) => ev(p));
        p.rows.forEach((row, k) => {
          const extra: Value[] = cols.map((c) => c[k] ?? null);
          out.push(row.length === width ? [...row, ...extra] : [...row.slice(0, width), ...extra]);
        });
      });
      return out;
    });
}
