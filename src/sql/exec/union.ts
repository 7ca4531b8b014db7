/** UNION: the children's rows in order; rows of the first `distinctUpTo` children deduplicated together. */
import type { PlanNode } from '../plan/index.js';
import type { ExecContext } from './context.js';
import type { ExecFactory, Executor, Row } from './executor.js';
import { typeCollation, type Collation } from '../../types/index.js';
import { keyCollations, rowKey } from './value-key.js';

type UnionNode = Extract<PlanNode, { kind: 'union' }>;

export function unionFactory(node: UnionNode, children: readonly ExecFactory[]): ExecFactory {
  const colls = keyCollations(node.schema.columns.map((c) => typeCollation(c.type)));
  return (ctx) => new UnionExec(ctx, children, node.distinctUpTo, colls);
}

class UnionExec implements Executor {
  private index = 0;
  private current: Executor | null = null;
  private readonly seen = new Set<string>();

  constructor(
    private readonly ctx: ExecContext,
    private readonly children: readonly ExecFactory[],
    private readonly distinctUpTo: number,
    private readonly colls: ReadonlyArray<Collation | undefined>,
  ) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      if (this.current === null) {
        const f = this.children[this.index];
        if (f === undefined) return null;
        this.current = f(this.ctx, Infinity);
      }
      const batch = await this.current.next();
      if (batch === null) {
        this.current = null;
        this.index++;
        continue;
      }
      const out = this.index < this.distinctUpTo ? this.fresh(batch) : batch;
      if (out.length > 0) return out;
    }
  }

  private fresh(batch: Row[]): Row[] {
    return batch.filter((r) => {
      const k = rowKey(r, this.colls);
      if (this.seen.has(k)) return false;
      this.seen.add(k);
      return true;
    });
  }
}
