/**
 * Streams a large result set to the client while the statement still runs (RowSink): the
 * column count and definitions go out at `begin`, rows are encoded straight into the
 * connection's writer and flushed every FLUSH_AT bytes (waiting for the socket is the
 * back-pressure), and `sendResult` ends it with the EOF. An error after `begin` is sent as an
 * ERR packet after the rows already sent, as MySQL does.
 */
import { SqlError } from '../errors/index.js';
import type { ResultColumn, RowSink } from '../sql/session/types.js';
import type { Value } from '../types/index.js';
import type { Connection } from './connection.js';
import { columnsMeta, FLUSH_AT, writeBinaryRow, writeColumnBlock, writeTextRow, type ColumnsMeta } from './result-writer.js';

export class SocketRowSink implements RowSink {
  private columns: readonly ResultColumn[] = [];
  private meta: ColumnsMeta | undefined;
  private begun = false;

  constructor(
    private readonly conn: Connection,
    private readonly binary: boolean,
    private readonly moreResults: boolean,
  ) {}

  /** True once the column definitions went out: an error must then follow the rows as an ERR. */
  get started(): boolean {
    return this.begun;
  }

  async begin(columns: readonly ResultColumn[]): Promise<void> {
    // An autocommit statement is re-run after a conflict; once rows went out it cannot be.
    if (this.begun) throw SqlError.of('ER_UNKNOWN_ERROR', 'the statement cannot be retried: part of its result set was already sent');
    this.begun = true;
    this.columns = columns;
    this.meta = columnsMeta(columns, this.conn.collationId, this.conn.columnsCache);
    const w = this.conn.writer;
    w.begin();
    w.lenencInt(columns.length);
    w.end();
    writeColumnBlock(w, this.meta, this.conn.status(this.moreResults));
  }

  async rows(batch: ReadonlyArray<readonly Value[]>): Promise<void> {
    const w = this.conn.writer;
    const meta = this.meta as ColumnsMeta;
    for (const row of batch) {
      if (this.binary) writeBinaryRow(w, row, this.columns, meta.wireTypes);
      else writeTextRow(w, row, this.columns);
      if (w.pos >= FLUSH_AT) await this.conn.flush();
    }
    // The client went away: stop the statement instead of producing rows nobody reads.
    if (this.conn.socket.destroyed) throw SqlError.of('ER_QUERY_INTERRUPTED');
  }
}
