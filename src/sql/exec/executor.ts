/**
 * Executors pull batches of rows: `next()` resolves with a non-empty batch or null at the end.
 * A plan is compiled once into an ExecFactory (evaluators, key encoders and offsets resolved);
 * each run creates fresh executor objects from it. `want` tells a reader how many rows its
 * consumer may need at most (Infinity when unknown), so scans under LIMIT start small.
 */
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';

export type Row = Value[];

export interface Executor {
  next(): Promise<Row[] | null>;
}

export type ExecFactory = (ctx: ExecContext, want: number) => Executor;

/** Reads every remaining row of `ex`. */
export async function drain(ex: Executor): Promise<Row[]> {
  const first = await ex.next();
  if (first === null) return [];
  let out = first;
  for (let b = await ex.next(); b !== null; b = await ex.next()) {
    if (out === first) out = first.slice();
    for (const r of b) out.push(r);
  }
  return out;
}

/** An executor over rows already in memory. */
export function fromRows(rows: Row[]): Executor {
  let done = rows.length === 0;
  return {
    next: () => {
      if (done) return Promise.resolve(null);
      done = true;
      return Promise.resolve(rows);
    },
  };
}

export const INITIAL_BATCH = 256;
export const MAX_BATCH = 4096;

export function firstBatch(want: number): number {
  return Math.max(1, Math.min(INITIAL_BATCH, Number.isFinite(want) ? want : INITIAL_BATCH));
}
