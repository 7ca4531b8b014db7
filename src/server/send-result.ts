/**
 * Sends one ExecResult of a command (OK or result set, text or binary rows) with the status
 * flags read from the session after the statement. If encoding fails, the partial response is
 * rolled back so the caller can send an ERR instead; if part of it was already flushed, the
 * failure becomes BrokenResponse (the connection is closed).
 * Spec: /work/shared/reference/mysql-protocol.md §3.1 (result shapes, MORE_RESULTS_EXISTS).
 */
import type { ExecResult } from '../sql/session/types.js';
import type { Connection } from './connection.js';
import { BrokenResponse } from './protocol-errors.js';
import { writeEof } from './packets/eof.js';
import { columnsMeta, writeOkResult, writeResultSet } from './result-writer.js';

/** What sendResult uses of a connection (tests hand in a stand-in). */
export type ResultTarget = Pick<Connection, 'writer' | 'flushCount' | 'status' | 'collationId' | 'columnsCache' | 'flush'>;

export function sendResult(conn: ResultTarget, result: ExecResult, moreResults: boolean, binary: boolean): Promise<void> | undefined {
  const w = conn.writer;
  const mark = w.pos;
  const seq = w.seq;
  const flushes = conn.flushCount;
  try {
    const status = conn.status(moreResults);
    if (result.kind === 'ok') {
      writeOkResult(w, result, status);
      return undefined;
    }
    if (result.streamed !== undefined) {
      writeEof(w, Math.min(result.warnings, 0xffff), status); // columns and rows went out already
      return undefined;
    }
    const meta = columnsMeta(result.columns, conn.collationId, conn.columnsCache);
    // Undefined unless a full socket made the writer wait part-way (then failures arrive later).
    return writeResultSet(conn, result, meta, status, binary)?.catch((err: unknown) => failed(conn, mark, seq, flushes, err));
  } catch (err) {
    return failed(conn, mark, seq, flushes, err);
  }
}

/** Encoding failed: roll the partial response back, or BrokenResponse if part of it was flushed. */
function failed(conn: ResultTarget, mark: number, seq: number, flushes: number, err: unknown): never {
  if (conn.flushCount !== flushes) throw new BrokenResponse(err);
  conn.writer.pos = mark;
  conn.writer.seq = seq;
  throw err;
}
