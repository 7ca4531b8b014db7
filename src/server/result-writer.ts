/**
 * Writes ExecResults: an OK packet, or a result set (column count, ColumnDefinition41 x N, EOF,
 * rows, EOF) with text rows (COM_QUERY) or binary rows (COM_STMT_EXECUTE).
 * Large result sets are flushed in pieces through `sink.flush()` (which honours 'drain').
 * Spec: /work/shared/reference/mysql-protocol.md §3.1–3.5.
 */
import type { OkResult, ResultColumn, RowsResult } from '../sql/session/types.js';
import type { Value } from '../types/index.js';
import { writeBinaryValue } from './binary-value.js';
import { columnDefinition } from './column-meta.js';
import { writeColumnDefinition } from './packets/column-definition.js';
import { writeEof } from './packets/eof.js';
import { writeOk } from './packets/ok.js';
import { PacketWriter } from './packet-writer.js';
import { textValue } from './text-value.js';

/** Flush to the socket once this much is buffered in the middle of a result set. */
export const FLUSH_AT = 1024 * 1024;

export interface ResponseSink {
  readonly writer: PacketWriter;
  /** Sends what the writer holds; a promise (resolved once the socket can take more) only when it is full. */
  flush(): Promise<void> | undefined;
}

/** Encoded column definitions of one column list for one connection collation. */
export interface ColumnsMeta {
  readonly collation: number;
  readonly payloads: readonly Buffer[];
  readonly wireTypes: readonly number[];
}

/** Per-connection cache: prepared statements reuse their column list across executes. */
export type ColumnsCache = WeakMap<readonly ResultColumn[], ColumnsMeta>;

export function columnsMeta(columns: readonly ResultColumn[], collation: number, cache: ColumnsCache): ColumnsMeta {
  const hit = cache.get(columns);
  if (hit !== undefined && hit.collation === collation) return hit;
  const tmp = new PacketWriter(256);
  const payloads: Buffer[] = [];
  const wireTypes: number[] = [];
  for (const c of columns) {
    const def = columnDefinition(c, collation);
    writeColumnDefinition(tmp, def);
    payloads.push(tmp.take().subarray(4));
    wireTypes.push(def.type);
  }
  const meta = { collation, payloads, wireTypes };
  cache.set(columns, meta);
  return meta;
}

export function writeOkResult(w: PacketWriter, r: OkResult, status: number): void {
  writeOk(w, { affectedRows: r.affectedRows, insertId: r.insertId, status, warnings: r.warnings, info: r.info });
}

/** Column count, definitions and the EOF that ends them (also used for PREPARE_OK metadata). */
export function writeColumnBlock(w: PacketWriter, meta: ColumnsMeta, status: number): void {
  for (const p of meta.payloads) w.packet(p);
  writeEof(w, 0, status);
}

/**
 * The whole result set. Returns undefined when it was written without waiting (the common case:
 * no promise); a promise when a full socket made it wait for 'drain' part-way.
 */
export function writeResultSet(
  sink: ResponseSink,
  result: RowsResult,
  meta: ColumnsMeta,
  status: number,
  binary: boolean,
): Promise<void> | undefined {
  const w = sink.writer;
  w.begin();
  w.lenencInt(result.columns.length);
  w.end();
  writeColumnBlock(w, meta, status);
  return writeRowsFrom(sink, result, meta, status, binary, 0);
}

function writeRowsFrom(sink: ResponseSink, result: RowsResult, meta: ColumnsMeta, status: number, binary: boolean, from: number): Promise<void> | undefined {
  const w = sink.writer;
  const cols = result.columns;
  const rows = result.rows;
  for (let i = from; i < rows.length; i++) {
    const row = rows[i] as readonly Value[];
    if (binary) writeBinaryRow(w, row, cols, meta.wireTypes);
    else writeTextRow(w, row, cols);
    if (w.pos >= FLUSH_AT) {
      const sending = sink.flush();
      if (sending !== undefined) return sending.then(() => writeRowsFrom(sink, result, meta, status, binary, i + 1));
    }
  }
  writeEof(w, Math.min(result.warnings, 0xffff), status);
  return undefined;
}

export function writeTextRow(w: PacketWriter, row: readonly Value[], cols: readonly ResultColumn[]): void {
  w.begin();
  for (let i = 0; i < cols.length; i++) {
    const v = row[i];
    if (v === null || v === undefined) {
      w.u8(0xfb);
      continue;
    }
    const t = textValue(v, (cols[i] as ResultColumn).type);
    if (typeof t === 'string') w.lenencString(t);
    else w.lenencBytes(t);
  }
  w.end();
}

/** 0x00, NULL bitmap with bit offset 2, then the non-NULL values in their wire encoding. */
export function writeBinaryRow(w: PacketWriter, row: readonly Value[], cols: readonly ResultColumn[], wireTypes: readonly number[]): void {
  w.begin();
  w.u8(0);
  const n = cols.length;
  const bitmapAt = w.pos;
  w.zeros((n + 9) >> 3);
  for (let i = 0; i < n; i++) {
    const v = row[i];
    if (v === null || v === undefined) {
      const bit = i + 2;
      w.buf[bitmapAt + (bit >> 3)] = (w.buf[bitmapAt + (bit >> 3)] as number) | (1 << (bit & 7));
      continue;
    }
    writeBinaryValue(w, v, wireTypes[i] as number, (cols[i] as ResultColumn).type);
  }
  w.end();
}

