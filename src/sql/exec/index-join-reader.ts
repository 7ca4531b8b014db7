/**
 * The inner side of an index join: outer key values converted to the key column types and
 * encoded like the range planner's keys (`_ci` strings by collation weight), then one
 * multi-range scan per batch of distinct keys over the record space (handle / common-handle
 * primary key) or the index (then one batchGet of the records per page).
 */
import { indexColumnTypes, recordKeyOf } from '../../catalog/index.js';
import type { Handle } from '../../codec/index.js';
import { handleColumns, type IndexJoinSpec } from '../plan/index.js';
import type { ColumnType, Value } from '../../types/index.js';
import { compareBytes, prefixEnd, toHex } from '../../util/index.js';
import type { ExecContext } from './context.js';
import { MAX_BATCH, type Row } from './executor.js';
import { encodeTuple, indexSpace, recordSpace, type KeyRange, type KeySpace } from './key-ranges.js';
import { KeyScanner } from './key-scanner.js';
import { IndexEntryDecoder } from './index-scan.js';
import { RowDecoder } from './row-decoder.js';
import { EMPTY, UNUSABLE, convertKeyValue } from './range-values.js';

export interface LookupKey {
  readonly id: string;
  readonly bytes: Uint8Array;
}

export class InnerLookup {
  private readonly space: KeySpace;
  private readonly entry: IndexEntryDecoder | null;
  private readonly decoder: RowDecoder;
  /** Every handle column is looked up: the keys are record keys, read by one batchGet. */
  private readonly point: boolean;

  constructor(private readonly spec: IndexJoinSpec) {
    const table = spec.table;
    if (spec.index === null) {
      const types: ColumnType[] = handleColumns(table).map((c) => c.type);
      this.space = recordSpace(table.id, table.handleKind === 'int', types);
      this.entry = null;
      this.point = spec.columns.length === types.length;
    } else {
      const types = indexColumnTypes(table, spec.index);
      this.space = indexSpace(table.id, spec.index.id, types);
      this.entry = new IndexEntryDecoder(table, spec.index.columns.map((c) => (c.length === undefined ? c.offset : -1)), types);
      this.point = false;
    }
    this.decoder = new RowDecoder(table, spec.needed);
  }

  /** The key outer values look up; EMPTY when they match no row, UNUSABLE when the key order cannot tell. */
  outerKey(values: readonly Value[]): LookupKey | typeof EMPTY | typeof UNUSABLE {
    const conv: Value[] = [];
    for (let i = 0; i < this.spec.columns.length; i++) {
      const v = values[i] ?? null;
      if (v === null) return EMPTY;
      const c = convertKeyValue(v, (this.spec.columns[i] as (typeof this.spec.columns)[number]).type, 'eq');
      if (c === EMPTY || c === UNUSABLE) return c;
      conv.push(c);
    }
    return this.encode(conv) ?? UNUSABLE;
  }

  /** The key of an inner row's key columns (null when one is NULL or cannot be encoded). */
  innerKey(row: Row): string | null {
    const values: Value[] = [];
    for (const c of this.spec.columns) {
      const v = row[c.offset] ?? null;
      if (v === null) return null;
      values.push(v);
    }
    return this.encode(values)?.id ?? null;
  }

  private encode(values: readonly Value[]): LookupKey | null {
    try {
      const bytes = encodeTuple(this.space, values);
      return { id: toHex(bytes), bytes };
    } catch {
      return null;
    }
  }

  /** Every row under the given key prefixes, in key order. */
  async fetch(ctx: ExecContext, keys: readonly LookupKey[]): Promise<Row[]> {
    if (keys.length === 0) return [];
    if (this.point) return this.getRecords(ctx, keys);
    const ranges: KeyRange[] = keys.map((k) => ({ start: k.bytes, end: prefixEnd(k.bytes) }));
    ranges.sort((a, b) => compareBytes(a.start, b.start));
    const scanner = new KeyScanner(ctx.txn, ranges, Math.min(MAX_BATCH, Math.max(32, keys.length)));
    const rows: Row[] = [];
    for (;;) {
      const pairs = await scanner.next();
      if (pairs === null) return rows;
      if (this.entry === null) {
        for (const p of pairs) rows.push(this.decoder.decodeKeyed(p.key, p.value));
        if (this.spec.lock) ctx.txn.lockKeys(pairs.map((p) => p.key));
        continue;
      }
      const entry = this.entry;
      const handles: Handle[] = pairs.map((p) => entry.decode(p, false).handle);
      const recordKeys = handles.map((h) => recordKeyOf(this.spec.table, h));
      const values = await ctx.txn.batchGet(recordKeys);
      if (this.spec.lock) ctx.txn.lockKeys(recordKeys);
      values.forEach((v, i) => {
        if (v !== undefined) rows.push(this.decoder.decode(handles[i] as Handle, v));
      });
    }
  }

  private async getRecords(ctx: ExecContext, keys: readonly LookupKey[]): Promise<Row[]> {
    const recordKeys = keys.map((k) => k.bytes);
    if (this.spec.lock) ctx.txn.lockKeys(recordKeys);
    const values = await ctx.txn.batchGet(recordKeys);
    const rows: Row[] = [];
    values.forEach((v, i) => {
      if (v !== undefined) rows.push(this.decoder.decodeKeyed(recordKeys[i] as Uint8Array, v));
    });
    return rows;
  }
}
