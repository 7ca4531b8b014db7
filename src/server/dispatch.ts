/**
 * Command phase: routes one client packet to its handler. Every handler is wrapped: SqlErrors
 * and malformed packets become ERR packets, other exceptions are logged and sent as 1105;
 * nothing a client sends can crash the server. Unknown commands get ERR 1047. A packet over
 * max_allowed_packet read inside a handler (the AuthSwitch reply of COM_CHANGE_USER) is
 * rethrown: the caller answers 1153 and closes, since nothing after it can be decoded.
 * Spec: /work/shared/reference/mysql-protocol.md §2.
 */
import { SqlError } from '../errors/index.js';
import {
  handleFieldList,
  handleInitDb,
  handlePing,
  handleResetConnection,
  handleSetOption,
  handleStatistics,
} from './admin-commands.js';
import { handleChangeUser } from './change-user-command.js';
import { Command } from './constants.js';
import type { Connection } from './connection.js';
import { errorFields } from './error-reply.js';
import type { Packet } from './packet-decoder.js';
import { writeErr } from './packets/err.js';
import { BrokenResponse, PacketTooLarge } from './protocol-errors.js';
import { handleQuery } from './query-command.js';
import { handleClose, handleExecute, handleLongData, handlePrepare, handleReset } from './stmt-commands.js';

/** Runs one command. Resolves false when the connection must be closed (QUIT, failed CHANGE_USER, broken response). */
export async function dispatch(conn: Connection, packet: Packet): Promise<boolean> {
  const payload = packet.payload;
  const command = payload[0];
  const mark = conn.writer.pos;
  const seq = conn.writer.seq;
  try {
    // The two hot commands skip route()'s extra async frame.
    if (command === Command.STMT_EXECUTE) await handleExecute(conn, payload);
    else if (command === Command.QUERY) await handleQuery(conn, payload);
    else return await route(conn, command, payload);
    return true;
  } catch (err) {
    if (err instanceof PacketTooLarge) throw err;
    if (err instanceof BrokenResponse) {
      errorFields(err.causeError, conn.log, `command ${String(command)}`);
      return false;
    }
    conn.writer.pos = mark;
    conn.writer.seq = seq;
    writeErr(conn.writer, errorFields(err, conn.log, `command ${String(command)}`));
    return true;
  }
}

async function route(conn: Connection, command: number | undefined, payload: Buffer): Promise<boolean> {
  switch (command) {
    case Command.QUIT:
      return false;
    case Command.QUERY:
      await handleQuery(conn, payload);
      return true;
    case Command.STMT_EXECUTE:
      await handleExecute(conn, payload);
      return true;
    case Command.STMT_PREPARE:
      await handlePrepare(conn, payload);
      return true;
    case Command.STMT_CLOSE:
      handleClose(conn, payload);
      return true;
    case Command.STMT_SEND_LONG_DATA:
      handleLongData(conn, payload);
      return true;
    case Command.STMT_RESET:
      handleReset(conn, payload);
      return true;
    case Command.PING:
      handlePing(conn);
      return true;
    case Command.INIT_DB:
      await handleInitDb(conn, payload);
      return true;
    case Command.FIELD_LIST:
      await handleFieldList(conn, payload);
      return true;
    case Command.STATISTICS:
      handleStatistics(conn);
      return true;
    case Command.SET_OPTION:
      handleSetOption(conn, payload);
      return true;
    case Command.RESET_CONNECTION:
      await handleResetConnection(conn);
      return true;
    case Command.CHANGE_USER:
      return handleChangeUser(conn, payload);
    default:
      throw SqlError.of('ER_UNKNOWN_COM_ERROR');
  }
}
