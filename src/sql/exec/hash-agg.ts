/**
 * HashAgg: groups the input by the GROUP BY keys and feeds each group's aggregators. String keys
 * group by their collation ('a' and 'A' together under `_ci`; the group shows its first value).
 */
import { compileExpr, createAggregator, deriveCollation, type Aggregator, type Evaluator } from '../expr/index.js';
import type { AggSpec, PlanNode } from '../plan/index.js';
import type { AggName } from '../parse/index.js';
import type { Collation, Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { fromRows, type ExecFactory, type Executor, type Row } from './executor.js';
import { keyCollations, rowKey } from './value-key.js';

type HashAggNode = Extract<PlanNode, { kind: 'hashAgg' }>;

interface Group {
  readonly keys: Value[];
  readonly aggs: Aggregator[];
}

export function hashAggFactory(node: HashAggNode, child: ExecFactory): ExecFactory {
  const groupEvals = node.groupBy.map((g) => compileExpr(g, node.child.schema, 'group statement'));
  const argEvals = node.aggs.map((a) => (a.arg === null ? null : compileExpr(a.arg, node.child.schema, 'field list')));
  const newAggs = (): Aggregator[] => node.aggs.map(makeAggregator);
  const colls = keyCollations(node.groupBy.map((g) => deriveCollation(g, node.child.schema).collation));
  return (ctx) => {
    let done = false;
    return {
      next: async () => {
        if (done) return null;
        done = true;
        const rows = await aggregate(ctx, child(ctx, Infinity), groupEvals, colls, argEvals, newAggs);
        return fromRows(rows).next();
      },
    };
  };
}

async function aggregate(
  ctx: ExecContext,
  input: Executor,
  groupEvals: readonly Evaluator[],
  colls: ReadonlyArray<Collation | undefined>,
  argEvals: ReadonlyArray<Evaluator | null>,
  newAggs: () => Aggregator[],
): Promise<Row[]> {
  const groups = new Map<string, Group>();
  for (let batch = await input.next(); batch !== null; batch = await input.next()) {
    for (const row of batch) {
      const keys = groupEvals.map((g) => g(row, ctx));
      const k = rowKey(keys, colls);
      let g = groups.get(k);
      if (g === undefined) groups.set(k, (g = { keys, aggs: newAggs() }));
      for (let i = 0; i < argEvals.length; i++) {
        const ev = argEvals[i];
        (g.aggs[i] as Aggregator).add(ev === null || ev === undefined ? 1n : ev(row, ctx));
      }
    }
  }
  if (groups.size === 0 && groupEvals.length === 0) groups.set('', { keys: [], aggs: newAggs() });
  const out: Row[] = [];
  for (const g of groups.values()) out.push([...g.keys, ...g.aggs.map((a) => a.result())]);
  return out;
}

function makeAggregator(a: AggSpec): Aggregator {
  if (a.name === 'FIRSTROW') return firstRow();
  return createAggregator(a.name as AggName, a.distinct, a.argType, a.separator);
}

function firstRow(): Aggregator {
  let seen = false;
  let value: Value = null;
  return {
    add(v: Value): void {
      if (!seen) {
        seen = true;
        value = v;
      }
    },
    result: () => value,
  };
}
