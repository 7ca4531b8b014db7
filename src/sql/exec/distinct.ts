/** Distinct: drops rows equal to an earlier one (streaming). */
import type { ExecFactory, Executor, Row } from './executor.js';
import { rowKey } from './value-key.js';

export function distinctFactory(child: ExecFactory): ExecFactory {
  return (ctx) => new DistinctExec(child(ctx, Infinity));
}

class DistinctExec implements Executor {
  private readonly seen = new Set<string>();

  constructor(private readonly child: Executor) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      const batch = await this.child.next();
      if (batch === null) return null;
      const out: Row[] = [];
      for (const r of batch) {
        const k = rowKey(r);
        if (this.seen.has(k)) continue;
        this.seen.add(k);
        out.push(r);
      }
      if (out.length > 0) return out;
    }
  }
}
