/**
 * The server's authentication decision, shared by the handshake and COM_CHANGE_USER:
 * 1. mysql_native_password (or no / empty plugin name) -> verify native.
 * 2. caching_sha2_password with a token -> verify sha2, then AuthMoreData `01 03` (fast auth OK).
 * 3. anything else, or an empty sha2 token -> AuthSwitchRequest to native with a fresh scramble
 *    (only if the client has PLUGIN_AUTH), then verify the client's raw reply.
 * The caller sends the final OK or ERR 1045. Spec: /work/shared/reference/mysql-protocol.md §1.5.
 */
import { generateScramble, verifyNative, verifySha2 } from './auth-crypto.js';
import type { Connection } from './connection.js';
import { Cap, NATIVE_PLUGIN, SHA2_PLUGIN } from './constants.js';
import { writeAuthMoreData, writeAuthSwitchRequest } from './packets/auth-switch.js';

export interface AuthAttempt {
  readonly user: string;
  readonly plugin: string;
  readonly token: Buffer;
  /** Scramble the client computed `token` with. */
  readonly scramble: Buffer;
}

export interface AuthOutcome {
  readonly ok: boolean;
  /** For the 1045 text: did the last token carry a password? */
  readonly usedPassword: boolean;
}

const FAST_AUTH_OK = Buffer.from([0x03]);

export async function authenticate(conn: Connection, a: AuthAttempt): Promise<AuthOutcome> {
  const auth = await conn.deps.engine.lookupUser(a.user, conn.host);
  const plugin = conn.capabilities & Cap.PLUGIN_AUTH ? a.plugin : '';
  if (plugin === '' || plugin === NATIVE_PLUGIN) {
    return { ok: auth !== null && verifyNative(a.token, a.scramble, auth.nativeHash), usedPassword: a.token.length > 0 };
  }
  if (plugin === SHA2_PLUGIN && a.token.length > 0) {
    const ok = auth !== null && verifySha2(a.token, a.scramble, auth.sha2Hash);
    if (ok) writeAuthMoreData(conn.writer, FAST_AUTH_OK);
    return { ok, usedPassword: true };
  }
  return switchToNative(conn, auth?.nativeHash ?? null);
}

async function switchToNative(conn: Connection, nativeHash: Uint8Array | null): Promise<AuthOutcome> {
  const scramble = generateScramble();
  writeAuthSwitchRequest(conn.writer, NATIVE_PLUGIN, scramble);
  await conn.flush();
  const reply = await conn.next();
  if (reply === null) return { ok: false, usedPassword: false };
  const token = reply.payload;
  return { ok: nativeHash !== null && verifyNative(token, scramble, nativeHash), usedPassword: token.length > 0 };
}
