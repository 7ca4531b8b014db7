/**
 * IndexReader (covering: rows rebuilt from index keys and handles) and IndexLookUp (index
 * range -> handles -> one batchGet of the records per page, in index order).
 */
import { decodeIndexKey, decodeIndexValue, decodeKeyValues, type Handle } from '../../codec/index.js';
import { indexColumnTypes, recordKeyOf, type TableInfo } from '../../catalog/index.js';
import type { ColumnType, Value } from '../../types/index.js';
import { handleColumns, primaryIndex, type PlanNode } from '../plan/index.js';
import type { ExecContext } from './context.js';
import { firstBatch, type ExecFactory, type Executor, type Row } from './executor.js';
import { CompiledRanges, indexSpace } from './key-ranges.js';
import { KeyScanner, type KvPair } from './key-scanner.js';
import { RowDecoder } from './row-decoder.js';

type IndexScanNode = Extract<PlanNode, { kind: 'indexScan' }>;

export function indexScanFactory(node: IndexScanNode): ExecFactory {
  const table = node.table;
  const types = indexColumnTypes(table, node.index);
  const ranges = new CompiledRanges(node.ranges, indexSpace(table.id, node.index.id, types));
  const entry = new IndexEntryDecoder(table, node.index.columns.map((c) => (c.length === undefined ? c.offset : -1)), types);
  const decoder = new RowDecoder(table, node.needed);
  return (ctx, want) => {
    const scanner = new KeyScanner(ctx.txn, ranges.compute(ctx), firstBatch(want));
    return node.covering ? new CoveringExec(scanner, entry) : new LookUpExec(ctx, scanner, entry, decoder, node.lock);
  };
}

/** Index entry -> handle (and, for covering reads, the row). */
export class IndexEntryDecoder {
  private readonly width: number;
  private readonly intPk: number;
  private readonly pkOffsets: readonly number[];
  private readonly pkTypes: readonly ColumnType[];

  constructor(
    private readonly table: TableInfo,
    private readonly offsets: readonly number[],
    private readonly types: readonly ColumnType[],
  ) {
    this.width = table.columns.length;
    const pk = primaryIndex(table);
    this.intPk = table.pkIsHandle && pk?.columns[0] !== undefined ? pk.columns[0].offset : -1;
    const hc = table.handleKind === 'common' ? handleColumns(table) : [];
    this.pkOffsets = hc.map((c) => c.offset);
    this.pkTypes = hc.map((c) => c.type);
  }

  decode(p: KvPair, withValues: boolean): { handle: Handle; values: Value[] } {
    const h = decodeIndexValue(p.value);
    // A unique entry's value holds the handle: without values wanted, the key need not be read.
    if (h !== null && !withValues) return { handle: h, values: [] };
    const d = decodeIndexKey(p.key, withValues || h === null ? this.types : [], h === null ? this.table.handleKind : 'none');
    const handle = h ?? d.handle;
    if (handle === undefined) throw new Error(`index entry of ${this.table.name} without a handle`);
    return { handle, values: d.values };
  }

  row(p: KvPair): Row {
    const { handle, values } = this.decode(p, true);
    const row = new Array<Value>(this.width + 1).fill(null);
    for (let i = 0; i < this.offsets.length; i++) {
      const off = this.offsets[i] as number;
      if (off >= 0) row[off] = values[i] ?? null;
    }
    if (handle.kind === 'int') {
      if (this.intPk >= 0) row[this.intPk] = handle.value;
      row[this.width] = handle.value;
    } else {
      const pk = decodeKeyValues(handle.encoded, this.pkTypes).values;
      this.pkOffsets.forEach((off, i) => (row[off] = pk[i] ?? null));
      row[this.width] = handle.encoded;
    }
    return row;
  }
}

class CoveringExec implements Executor {
  constructor(
    private readonly scanner: KeyScanner,
    private readonly entry: IndexEntryDecoder,
  ) {}

  async next(): Promise<Row[] | null> {
    const pairs = await this.scanner.next();
    return pairs === null ? null : pairs.map((p) => this.entry.row(p));
  }
}

class LookUpExec implements Executor {
  constructor(
    private readonly ctx: ExecContext,
    private readonly scanner: KeyScanner,
    private readonly entry: IndexEntryDecoder,
    private readonly decoder: RowDecoder,
    private readonly lock: boolean,
  ) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      const pairs = await this.scanner.next();
      if (pairs === null) return null;
      const handles = pairs.map((p) => this.entry.decode(p, false).handle);
      const keys = handles.map((h) => recordKeyOf(this.decoder.tableInfo, h));
      const values = await this.ctx.txn.batchGet(keys);
      if (this.lock) this.ctx.txn.lockKeys(keys);
      const rows: Row[] = [];
      values.forEach((v, i) => {
        if (v !== undefined) rows.push(this.decoder.decode(handles[i] as Handle, v));
      });
      if (rows.length > 0) return rows;
    }
  }
}
