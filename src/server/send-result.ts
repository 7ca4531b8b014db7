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

export async function sendResult(conn: Connection, result: ExecResult, moreResults: boolean, binary: boolean): Promise<void> {
  const w = conn.writer;
  const mark = w.pos;
  const seq = w.seq;
  const flushes = conn.flushCount;
  try {
    const status = conn.status(moreResults);
    if (result.kind === 'ok') {
      writeOkResult(w, result, status);
      return;
    }
    if (result.streamed !== undefined) {
      writeEof(w, Math.min(result.warnings, 0xffff), status); // columns and rows went out already
      return;
    }
    const meta = columnsMeta(result.columns, conn.collationId, conn.columnsCache);
    await writeResultSet(conn, result, meta, status, binary);
  } catch (err) {
    if (conn.flushCount !== flushes) throw new BrokenResponse(err);
    w.pos = mark;
    w.seq = seq;
    throw err;
  }
}
