/**
 * Connection phase: greeting (HandshakeV10, seq 0), HandshakeResponse41, authentication,
 * session. An SSLRequest (seq 1) first switches the connection to TLS (tls.ts).
 * Spec: /work/shared/reference/mysql-protocol.md §1.2–1.5.
 */
import { SqlError } from '../errors/index.js';
import { generateScramble } from './auth-crypto.js';
import type { Connection } from './connection.js';
import { Cap, NATIVE_PLUGIN, Status, UTF8MB4_BIN } from './constants.js';
import { writeErr } from './packets/err.js';
import { decodeHandshakeResponse, type HandshakeResponse } from './packets/handshake-response.js';
import { encodeHandshakeV10 } from './packets/handshake-v10.js';
import { login } from './open-session.js';
import { MalformedPacket } from './protocol-errors.js';
import { readHandshakeReply, serverCapabilities } from './tls.js';

/** True when the session is open; false when the connection must be closed (ERR written if any). */
export async function performHandshake(conn: Connection): Promise<boolean> {
  conn.scramble = generateScramble();
  const serverCaps = serverCapabilities(conn.deps.tls !== undefined);
  const w = conn.writer;
  w.seq = 0;
  w.begin();
  encodeHandshakeV10(w, {
    serverVersion: conn.deps.engine.serverVersion,
    connectionId: conn.id,
    scramble: conn.scramble,
    capabilities: serverCaps,
    charset: UTF8MB4_BIN,
    status: Status.AUTOCOMMIT,
    authPlugin: NATIVE_PLUGIN,
  });
  w.end();
  await conn.flush();
  const packet = await readHandshakeReply(conn, serverCaps);
  if (packet === null) return false;
  let resp: HandshakeResponse;
  try {
    resp = decodeHandshakeResponse(packet.payload, serverCaps);
  } catch (err) {
    if (!(err instanceof MalformedPacket)) throw err;
    writeErr(w, SqlError.of('ER_HANDSHAKE_ERROR'));
    return false;
  }
  conn.capabilities = resp.capabilities & serverCaps;
  conn.multiStatements = (conn.capabilities & Cap.MULTI_STATEMENTS) !== 0;
  return login(conn, {
    user: resp.user,
    plugin: resp.authPlugin,
    token: resp.authResponse,
    scramble: conn.scramble,
    database: resp.database,
    collationId: resp.charset,
  });
}
