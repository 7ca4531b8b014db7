/**
 * Prepared-statement commands: STMT_PREPARE, STMT_EXECUTE (binary rows), STMT_CLOSE and
 * STMT_SEND_LONG_DATA (never answered), STMT_RESET.
 * Spec: /work/shared/reference/mysql-protocol.md §2.1–2.2.
 */
import { SqlError } from '../errors/index.js';
import type { ExecResult, Value } from '../types/index.js';
import { decodeSurrogateEscape } from '../util/index.js';
import { errorFields } from './error-reply.js';
import { writeErr } from './packets/err.js';
import { ByteReader } from './byte-reader.js';
import { BINARY_COLLATION, WireType } from './constants.js';
import type { Connection } from './connection.js';
import { writeColumnDefinition, type ColumnDefinition } from './packets/column-definition.js';
import { writeEof } from './packets/eof.js';
import { writeEmptyOk } from './packets/ok.js';
import { decodeExecuteHeader, decodeExecuteParams } from './packets/stmt-execute.js';
import { decodeLongData } from './packets/stmt-long-data.js';
import { writePrepareOk } from './packets/stmt-prepare-ok.js';
import { LongData } from './long-data.js';
import type { StatementEntry } from './prepared-registry.js';
import { columnsMeta, writeColumnBlock } from './result-writer.js';
import { SocketRowSink } from './row-stream.js';
import { sendResult } from './send-result.js';

/** What MySQL sends for each parameter of a prepared statement. */
const PARAM_DEFINITION: ColumnDefinition = {
  schema: '', table: '', orgTable: '', name: '?', orgName: '',
  charset: BINARY_COLLATION, length: 0, type: WireType.VAR_STRING, flags: 0, decimals: 0,
};

/** PREPARE_OK carries the parameter count in 2 bytes. */
const MAX_PARAMS = 0xffff;

export async function handlePrepare(conn: Connection, payload: Buffer): Promise<void> {
  conn.statements.checkCapacity();
  const stmt = await conn.requireSession().prepare(decodeSurrogateEscape(payload, 1));
  if (stmt.paramCount > MAX_PARAMS) {
    stmt.close();
    throw SqlError.of('ER_PS_MANY_PARAM');
  }
  const entry = conn.statements.add(stmt);
  const w = conn.writer;
  const status = conn.status();
  writePrepareOk(w, entry.id, stmt.columns.length, stmt.paramCount, 0);
  if (stmt.paramCount > 0) {
    for (let i = 0; i < stmt.paramCount; i++) writeColumnDefinition(w, PARAM_DEFINITION);
    writeEof(w, 0, status);
  }
  if (stmt.columns.length > 0) writeColumnBlock(w, columnsMeta(stmt.columns, conn.collationId, conn.columnsCache), status);
}

function lookup(conn: Connection, id: number, command: string): StatementEntry {
  const entry = conn.statements.get(id);
  if (entry === undefined) throw SqlError.of('ER_UNKNOWN_STMT_HANDLER', id, command);
  return entry;
}

/**
 * A header shorter than 9 bytes or a parameter block missing bytes is 1835 (MalformedPacket,
 * as MySQL 8.0's parse_packet); unknown ids 1243; unusable types or values 1210.
 */
export function handleExecute(conn: Connection, payload: Buffer): Promise<void> {
  // Not async (one frame less per execute): a malformed packet throws synchronously, which
  // dispatch's try block answers like a rejection.
  const header = decodeExecuteHeader(payload);
  const entry = lookup(conn, header.stmtId, 'mysqld_stmt_execute');
  let params: Value[];
  try {
    params = decodeExecuteParams(header.reader, entry.stmt.paramCount, entry);
  } finally {
    entry.longData.clear();
  }
  const sink = new SocketRowSink(conn, true, false);
  return entry.stmt.execute(params, sink).then(
    (result: ExecResult) => sendResult(conn, result, false, true),
    (err: unknown) => {
      if (!sink.started) throw err;
      writeErr(conn.writer, errorFields(err, conn.log, 'execute')); // after the rows already sent
    },
  );
}

/** COM_STMT_CLOSE has no response, not even for unknown ids or malformed packets. */
export function handleClose(conn: Connection, payload: Buffer): void {
  if (payload.length < 5) return;
  conn.statements.close(payload.readUInt32LE(1));
}

export function handleReset(conn: Connection, payload: Buffer): void {
  const entry = lookup(conn, new ByteReader(payload, 1).u32(), 'mysqld_stmt_reset');
  entry.longData.clear();
  entry.types = null;
  writeEmptyOk(conn.writer, conn.status());
}

/**
 * COM_STMT_SEND_LONG_DATA has no response: bad ids or parameter numbers are ignored. The
 * chunks of one parameter may not exceed max_allowed_packet in total; past that the next
 * execute fails (long-data.ts).
 */
export function handleLongData(conn: Connection, payload: Buffer): void {
  if (payload.length < 7) return;
  const req = decodeLongData(payload);
  const entry = conn.statements.get(req.stmtId);
  if (entry === undefined || req.paramId >= entry.stmt.paramCount) return;
  let data = entry.longData.get(req.paramId);
  if (data === undefined) entry.longData.set(req.paramId, (data = new LongData()));
  data.append(req.data, conn.deps.maxAllowedPacket);
}
