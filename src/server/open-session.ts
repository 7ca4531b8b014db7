/**
 * Authenticates a user (handshake or COM_CHANGE_USER) and opens the session, writing the
 * final OK or ERR (1045 for bad credentials, the engine's SqlError e.g. 1049 otherwise).
 * Spec: /work/shared/reference/mysql-protocol.md §1.5 (decision table, steps 4-5).
 */
import { SqlError, isSqlError } from '../errors/index.js';
import { authenticate, type AuthAttempt } from './authenticate.js';
import type { Connection } from './connection.js';
import { Cap } from './constants.js';
import { writeErr } from './packets/err.js';
import { writeEmptyOk } from './packets/ok.js';
import { tlsSessionInfo } from './tls.js';

export interface LoginRequest extends AuthAttempt {
  readonly database: string;
  readonly collationId: number;
}

/** True when the session is open and OK was written; false after an ERR (caller closes). */
export async function login(conn: Connection, req: LoginRequest): Promise<boolean> {
  const outcome = await authenticate(conn, req);
  if (!outcome.ok) {
    writeErr(conn.writer, SqlError.of('ER_ACCESS_DENIED_ERROR', req.user, conn.host, outcome.usedPassword ? 'YES' : 'NO'));
    return false;
  }
  await conn.closeSession();
  try {
    conn.session = await conn.deps.engine.openSession({
      connectionId: conn.id,
      user: req.user,
      host: conn.host,
      ...(req.database !== '' ? { database: req.database } : {}),
      collationId: req.collationId,
      foundRows: (conn.capabilities & Cap.FOUND_ROWS) !== 0,
      interactive: (conn.capabilities & Cap.INTERACTIVE) !== 0,
      disconnect: (afterReply) => conn.disconnect(afterReply),
      tls: tlsSessionInfo(conn.socket),
    });
  } catch (err) {
    if (!isSqlError(err)) throw err;
    writeErr(conn.writer, err);
    return false;
  }
  conn.user = req.user;
  conn.collationId = req.collationId;
  writeEmptyOk(conn.writer, conn.status());
  return true;
}
