/**
 * COM_CHANGE_USER: re-authenticates like the handshake (incl. AuthSwitch and sha2 fast auth)
 * against the greeting's scramble, drops prepared statements, closes the old session and
 * opens a new one. A failure answers ERR and closes the connection.
 * Spec: /work/shared/reference/mysql-protocol.md §2 (COM_CHANGE_USER), §1.5.
 */
import type { Connection } from './connection.js';
import { login } from './open-session.js';
import { decodeChangeUser } from './packets/change-user.js';

/** False when the connection must be closed. Throws MalformedPacket (answered with ERR). */
export async function handleChangeUser(conn: Connection, payload: Buffer): Promise<boolean> {
  const req = decodeChangeUser(payload, conn.capabilities);
  return login(conn, {
    user: req.user,
    plugin: req.authPlugin,
    token: req.authResponse,
    scramble: conn.scramble,
    database: req.database,
    collationId: req.charset !== null && req.charset > 0 && req.charset < 256 ? req.charset : conn.collationId,
  });
}
