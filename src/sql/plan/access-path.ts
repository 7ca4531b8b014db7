/**
 * Rule-based access-path choice (no cost model): the candidate whose ranges pin the most
 * leading key columns wins; ties prefer the table's own handle range, then a covering index
 * (IndexReader), then an index lookup; with no usable range, a full table scan.
 */
import type { Expr } from '../parse/index.js';
import type { AccessBase, RangeSpec, ReaderNode } from './nodes.js';
import { extractRanges, rangeScore } from './ranges.js';
import type { RowSchema } from './row-schema.js';
import { handleColumns, indexKeyColumns, isCovering, readableIndexes } from './key-columns.js';

export interface AccessPath {
  readonly node: ReaderNode;
  readonly rest: Expr[];
}

export function chooseAccessPath(base: AccessBase, schema: RowSchema, conds: readonly Expr[]): AccessPath {
  let best: { node: ReaderNode; ranges: RangeSpec; score: number } | null = null;
  const handle = handleColumns(base.table);
  if (handle.length > 0) {
    const ranges = extractRanges(conds, schema, handle);
    if (ranges !== null) {
      best = { node: { kind: 'tableScan', schema, ranges, desc: false, ...base }, ranges, score: rangeScore(ranges) * 4 + 3 };
    }
  }
  for (const index of readableIndexes(base.table)) {
    const ranges = extractRanges(conds, schema, indexKeyColumns(base.table, index));
    if (ranges === null) continue;
    const covering = isCovering(base.table, index, base.needed);
    const score = rangeScore(ranges) * 4 + (covering ? 2 : 1);
    if (best === null || score > best.score) {
      best = { node: { kind: 'indexScan', schema, index, ranges, covering, desc: false, ...base }, ranges, score };
    }
  }
  if (best === null) return { node: { kind: 'tableScan', schema, ranges: null, desc: false, ...base }, rest: [...conds] };
  const consumed = new Set(best.ranges.consumed);
  return { node: best.node, rest: conds.filter((c) => !consumed.has(c)) };
}
