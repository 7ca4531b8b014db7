/**
 * Index join (INNER / LEFT): outer rows are taken in chunks; the chunk's distinct key values are
 * looked up in the inner table in one multi-range read (index-join-reader.ts), the rows found
 * are filtered by the inner table's own conditions and bucketed by key, and each outer row meets
 * its bucket in outer order (every ON condition re-checked; LEFT joins NULL-extend misses). NULL
 * keys never match. A key whose comparison the key order cannot express reads the whole inner
 * side (the join's `right` plan, materialized once).
 */
import { compileExpr, type Evaluator } from '../expr/index.js';
import type { IndexJoinSpec, PlanNode } from '../plan/index.js';
import type { ExecContext } from './context.js';
import { drain, MAX_BATCH, type ExecFactory, type Executor, type Row } from './executor.js';
import { passes } from './selection.js';
import { combine } from './join.js';
import { InnerLookup, type LookupKey } from './index-join-reader.js';
import { EMPTY, UNUSABLE } from './range-values.js';

type JoinNode = Extract<PlanNode, { kind: 'join' }>;

/** Outer rows looked up together. */
const CHUNK = 1024;

interface Compiled {
  readonly on: readonly Evaluator[];
  readonly keys: readonly Evaluator[];
  readonly conds: readonly Evaluator[];
  readonly lookup: InnerLookup;
  readonly lw: number;
  readonly rw: number;
  readonly leftJoin: boolean;
}

export function indexJoinFactory(node: JoinNode, spec: IndexJoinSpec, left: ExecFactory, right: ExecFactory): ExecFactory {
  const c: Compiled = {
    on: node.on.map((e) => compileExpr(e, node.schema, 'on clause')),
    keys: spec.outerKeys.map((e) => compileExpr(e, node.left.schema, 'on clause')),
    conds: spec.conds.map((e) => compileExpr(e, node.right.schema, 'where clause')),
    lookup: new InnerLookup(spec),
    lw: node.left.schema.width,
    rw: node.right.schema.width,
    leftJoin: node.joinType === 'left',
  };
  return (ctx) => new IndexJoinExec(ctx, left(ctx, Infinity), right, c);
}

const NONE: readonly Row[] = [];

class IndexJoinExec implements Executor {
  private batch: Row[] | null = null;
  private pos = 0;
  private done = false;
  private out: Row[] = [];
  private all: Row[] | null = null;

  constructor(
    private readonly ctx: ExecContext,
    private readonly outer: Executor,
    private readonly innerFactory: ExecFactory,
    private readonly c: Compiled,
  ) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      if (this.out.length > 0) return this.out.splice(0, MAX_BATCH);
      const chunk = await this.nextChunk();
      if (chunk === null) return null;
      await this.joinChunk(chunk);
      const paused = this.ctx.cancel.pause();
      if (paused !== null) await paused;
    }
  }

  private async nextChunk(): Promise<Row[] | null> {
    while (!this.done && (this.batch === null || this.pos >= this.batch.length)) {
      this.batch = await this.outer.next();
      this.pos = 0;
      if (this.batch === null) this.done = true;
    }
    if (this.done || this.batch === null) return null;
    const chunk = this.batch.slice(this.pos, this.pos + CHUNK);
    this.pos += chunk.length;
    return chunk;
  }

  private async joinChunk(rows: readonly Row[]): Promise<void> {
    const { ctx, c } = this;
    const keys: Array<LookupKey | typeof EMPTY | typeof UNUSABLE> = [];
    const distinct = new Map<string, LookupKey>();
    for (const l of rows) {
      const k = c.lookup.outerKey(c.keys.map((ev) => ev(l, ctx)));
      if (k !== EMPTY && k !== UNUSABLE) distinct.set(k.id, k);
      keys.push(k);
    }
    const buckets = new Map<string, Row[]>();
    for (const r of await c.lookup.fetch(ctx, [...distinct.values()])) {
      if (!passes(c.conds, r, ctx)) continue;
      const k = c.lookup.innerKey(r);
      if (k === null) continue;
      const list = buckets.get(k);
      if (list === undefined) buckets.set(k, [r]);
      else list.push(r);
    }
    for (let i = 0; i < rows.length; i++) {
      const k = keys[i];
      let inner: readonly Row[] = NONE;
      if (k === UNUSABLE) inner = await this.wholeInner();
      else if (k !== EMPTY && k !== undefined) inner = buckets.get(k.id) ?? NONE;
      this.joinRow(rows[i] as Row, inner);
    }
  }

  private async wholeInner(): Promise<Row[]> {
    this.all ??= await drain(this.innerFactory(this.ctx, Infinity));
    return this.all;
  }

  private joinRow(l: Row, inner: readonly Row[]): void {
    const { c } = this;
    let matched = false;
    for (const r of inner) {
      const row = combine(l, c.lw, r, c.rw);
      if (!passes(c.on, row, this.ctx)) continue;
      matched = true;
      this.out.push(row);
    }
    if (!matched && c.leftJoin) this.out.push(combine(l, c.lw, null, c.rw));
  }
}
