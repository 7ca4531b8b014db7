/**
 * Join (INNER / LEFT / CROSS) over a materialized inner (right) side: nested loops, or hash
 * buckets of the inner rows when ON has equi-join keys (hash-join.ts). Output rows are the left
 * columns then the right columns (hidden handle slots dropped).
 */
import { compileExpr, type Evaluator } from '../expr/index.js';
import type { PlanNode } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { drain, MAX_BATCH, type ExecFactory, type Executor, type Row } from './executor.js';
import { passes } from './selection.js';
import { buildBuckets, hashKeys, keyOf, type HashKeys } from './hash-join.js';

type JoinNode = Extract<PlanNode, { kind: 'join' }>;

export function joinFactory(node: JoinNode, left: ExecFactory, right: ExecFactory): ExecFactory {
  const on = node.on.map((c) => compileExpr(c, node.schema, 'on clause'));
  const lw = node.left.schema.width;
  const rw = node.right.schema.width;
  const keys = hashKeys(node.on, node.left.schema, node.right.schema);
  return (ctx) => new JoinExec(ctx, left(ctx, Infinity), right, on, lw, rw, node.joinType === 'left', keys);
}

const NO_ROWS: readonly Row[] = [];

/** Row pairs tried between two cancellation checks (a check may also yield the event loop). */
const PAIRS_PER_CHECK = 16384;

class JoinExec implements Executor {
  private inner: Row[] | null = null;
  private batch: Row[] | null = null;
  private pos = 0;
  private pairs = 0;

  constructor(
    private readonly ctx: ExecContext,
    private readonly outer: Executor,
    private readonly innerFactory: ExecFactory,
    private readonly on: readonly Evaluator[],
    private readonly lw: number,
    private readonly rw: number,
    private readonly leftJoin: boolean,
    /** Equi-join keys: the inner rows are bucketed by them (hash-join.ts). */
    private readonly keys: HashKeys | null,
  ) {}

  private buckets: Map<string, Row[]> | null = null;

  /** The inner rows that may match `l`: its bucket with hash keys, else all of them. */
  private candidates(l: Row): readonly Row[] {
    const inner = this.inner as Row[];
    if (this.keys === null) return inner;
    this.buckets ??= buildBuckets(inner, this.keys, this.ctx);
    const k = keyOf(this.keys.outer, l, this.ctx);
    return k === null ? NO_ROWS : (this.buckets.get(k) ?? NO_ROWS);
  }

  /** At most about MAX_BATCH rows per call, so a large cross product streams instead of piling up. */
  async next(): Promise<Row[] | null> {
    this.inner ??= await drain(this.innerFactory(this.ctx, Infinity));
    const out: Row[] = [];
    for (;;) {
      if (this.batch === null || this.pos >= this.batch.length) {
        if (out.length > 0) return out;
        this.batch = await this.outer.next();
        this.pos = 0;
        if (this.batch === null) return null;
      }
      const batch = this.batch;
      while (this.pos < batch.length && out.length < MAX_BATCH) {
        this.joinRow(batch[this.pos++] as Row, out);
        if (this.pairs >= PAIRS_PER_CHECK) {
          this.pairs = 0;
          const paused = this.ctx.cancel.pause();
          if (paused !== null) await paused;
        }
      }
      if (out.length >= MAX_BATCH) return out;
    }
  }

  private joinRow(l: Row, out: Row[]): void {
    let matched = false;
    const inner = this.candidates(l);
    this.pairs += inner.length + 1;
    for (const r of inner) {
      const row = combine(l, this.lw, r, this.rw);
      if (!passes(this.on, row, this.ctx)) continue;
      matched = true;
      out.push(row);
    }
    if (!matched && this.leftJoin) out.push(combine(l, this.lw, null, this.rw));
  }
}

export function combine(l: Row, lw: number, r: Row | null, rw: number): Row {
  const row = new Array<Value>(lw + rw);
  for (let i = 0; i < lw; i++) row[i] = l[i] ?? null;
  for (let i = 0; i < rw; i++) row[lw + i] = r === null ? null : (r[i] ?? null);
  return row;
}
