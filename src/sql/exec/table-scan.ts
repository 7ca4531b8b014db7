/** TableReader over the record space: full scan or handle ranges. */
import type { ColumnType } from '../../types/index.js';
import { handleColumns, type PlanNode } from '../plan/index.js';
import type { ExecContext } from './context.js';
import { firstBatch, type ExecFactory, type Executor, type Row } from './executor.js';
import { CompiledRanges, fullRange, recordSpace, type KeyRange } from './key-ranges.js';
import { KeyScanner } from './key-scanner.js';
import { RowDecoder } from './row-decoder.js';

type TableScanNode = Extract<PlanNode, { kind: 'tableScan' }>;

export function tableScanFactory(node: TableScanNode): ExecFactory {
  const types: ColumnType[] = handleColumns(node.table).map((c) => c.type);
  const space = recordSpace(node.table.id, node.table.handleKind === 'int', types);
  const ranges = node.ranges === null ? null : new CompiledRanges(node.ranges, space);
  const full = [fullRange(space)];
  const decoder = new RowDecoder(node.table, node.needed);
  return (ctx, want) => new TableScanExec(ctx, ranges === null ? full : ranges.compute(ctx), decoder, want, node.lock);
}

class TableScanExec implements Executor {
  private readonly scanner: KeyScanner;

  constructor(
    private readonly ctx: ExecContext,
    ranges: readonly KeyRange[],
    private readonly decoder: RowDecoder,
    want: number,
    private readonly lock: boolean,
  ) {
    this.scanner = new KeyScanner(ctx.txn, ranges, firstBatch(want));
  }

  async next(): Promise<Row[] | null> {
    // Rows are decoded straight from the store's buffers (the decoder copies every value out).
    if (!this.lock) return this.scanner.nextMapped(this.decode);
    const pairs = await this.scanner.next();
    if (pairs === null) return null;
    const rows = new Array<Row>(pairs.length);
    for (let i = 0; i < pairs.length; i++) {
      const p = pairs[i] as (typeof pairs)[number];
      rows[i] = this.decoder.decodeKeyed(p.key, p.value);
    }
    this.ctx.txn.lockKeys(pairs.map((p) => p.key));
    return rows;
  }

  private readonly decode = (key: Uint8Array, ks: number, ke: number, value: Uint8Array, vs: number, ve: number): Row =>
    this.decoder.decodeKeyedAt(key, ks, ke, value, vs, ve);
}
