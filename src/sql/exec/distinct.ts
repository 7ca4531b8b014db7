/** Distinct: drops rows equal to an earlier one (streaming); strings compare by their column's collation. */
import type { RowSchema } from '../plan/index.js';
import { typeCollation, type Collation } from '../../types/index.js';
import type { ExecFactory, Executor, Row } from './executor.js';
import { keyCollations, rowKey } from './value-key.js';

export function distinctFactory(child: ExecFactory, schema?: RowSchema): ExecFactory {
  const colls = keyCollations(schema?.columns.map((c) => typeCollation(c.type)) ?? []);
  return (ctx) => new DistinctExec(child(ctx, Infinity), colls);
}

class DistinctExec implements Executor {
  private readonly seen = new Set<string>();
  /** One-column rows holding a string: keyed by the bare weight (no type prefix to concatenate). */
  private readonly seenStrings = new Set<string>();

  constructor(
    private readonly child: Executor,
    private readonly colls: ReadonlyArray<Collation | undefined>,
  ) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      const batch = await this.child.next();
      if (batch === null) return null;
      const out: Row[] = [];
      const coll = this.colls[0];
      for (const r of batch) {
        const v = r[0];
        const bare = r.length === 1 && typeof v === 'string';
        const set = bare ? this.seenStrings : this.seen;
        const k = bare ? (coll === undefined ? v : coll.weight(v)) : rowKey(r, this.colls);
        if (set.has(k)) continue;
        set.add(k);
        out.push(r);
      }
      if (out.length > 0) return out;
    }
  }
}
