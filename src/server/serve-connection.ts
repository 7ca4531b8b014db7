/**
 * Lifecycle of one connection: handshake, then one command at a time until QUIT, a fatal
 * error or the peer going away. Whatever happens, the session (if any) is closed exactly once
 * and the socket is ended; the returned promise never rejects.
 */
import { SqlError } from '../errors/index.js';
import type { Connection } from './connection.js';
import { dispatch } from './dispatch.js';
import { performHandshake } from './handshake.js';
import { writeErr } from './packets/err.js';
import { PacketTooLarge } from './protocol-errors.js';

export async function serveConnection(conn: Connection): Promise<void> {
  try {
    const ready = await performHandshake(conn);
    await conn.flush();
    if (ready) await commandLoop(conn);
  } catch (err) {
    if (err instanceof PacketTooLarge) {
      conn.writer.seq = (err.seq + 1) & 0xff;
      writeErr(conn.writer, SqlError.of('ER_NET_PACKET_TOO_LARGE'));
    } else {
      conn.log.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'connection failed');
    }
  }
  await shutdown(conn);
}

async function commandLoop(conn: Connection): Promise<void> {
  for (;;) {
    // A command already queued is taken without a promise; otherwise wait, up to wait_timeout.
    let packet = conn.takeCommand();
    if (packet === undefined) {
      const deadline = Date.now() + conn.requireSession().waitTimeout() * 1000;
      while (packet === undefined) {
        const now = Date.now();
        if (deadline - now <= 0) return idleTimeout(conn);
        await conn.waitForCommand(deadline, now);
        packet = conn.takeCommand();
      }
    }
    if (packet === null) return;
    const sent = conn.beforeCommand();
    if (sent !== undefined) await sent;
    const keep = await dispatch(conn, packet);
    if (keep && conn.session !== null && !conn.closeAfterReply) {
      // Written with the replies of every other command ready now (reply-batch.ts).
      conn.flushSoon();
      continue;
    }
    const sending = conn.flush();
    if (sending !== undefined) await sending;
    return;
  }
}

/** wait_timeout passed with no command: ERR 4031 (as MySQL 8.0.24+ sends it, seq 0), then close. */
function idleTimeout(conn: Connection): void {
  conn.log.info({ event: 'idle-timeout' }, 'closing connection idle for wait_timeout');
  conn.writer.seq = 0;
  writeErr(conn.writer, SqlError.of('ER_CLIENT_INTERACTION_TIMEOUT'));
}

async function shutdown(conn: Connection): Promise<void> {
  try {
    await conn.closeSession();
  } catch (err) {
    conn.log.error({ err: err instanceof Error ? err.message : String(err) }, 'session close failed');
  }
  try {
    await conn.end();
  } catch {
    conn.destroy();
  }
}

