/** Limit: skips `offset` rows, passes `count`, then stops pulling its child. */
import type { PlanNode } from '../plan/index.js';
import type { ExecFactory, Executor, Row } from './executor.js';
import { compileLimit } from './limit-values.js';

type LimitNode = Extract<PlanNode, { kind: 'limit' }>;

export function limitFactory(node: LimitNode, child: ExecFactory): ExecFactory {
  const count = compileLimit(node.count);
  const offset = compileLimit(node.offset);
  return (ctx) => {
    const n = count(ctx);
    const off = offset(ctx);
    return new LimitExec(n === 0 ? null : child(ctx, off + n), off, n);
  };
}

class LimitExec implements Executor {
  constructor(
    private readonly child: Executor | null,
    private skip: number,
    private left: number,
  ) {}

  async next(): Promise<Row[] | null> {
    while (this.left > 0 && this.child !== null) {
      let batch = await this.child.next();
      if (batch === null) break;
      if (this.skip > 0) {
        const k = Math.min(this.skip, batch.length);
        this.skip -= k;
        batch = batch.slice(k);
      }
      if (batch.length === 0) continue;
      if (batch.length > this.left) batch = batch.slice(0, this.left);
      this.left -= batch.length;
      return batch;
    }
    return null;
  }
}
