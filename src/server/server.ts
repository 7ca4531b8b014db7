/**
 * The TCP listener: one Connection per socket, connection ids from `firstConnectionId` (default 1);
 * close(graceMs) stops accepting and lets each connection finish the command it is running
 * (idle ones end at once: their open transactions roll back); connections still busy after
 * graceMs are cut. It resolves once the listener and all connections are closed.
 * Spec: /work/shared/reference/mysql-protocol.md §1.2 (errors before the greeting).
 */
import { createServer, type Socket } from 'node:net';
import { listen } from '../util/index.js';
import type { SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { SqlError } from '../errors/index.js';
import type { Engine } from '../sql/session/types.js';
import { Connection } from './connection.js';
import { DEFAULT_MAX_ALLOWED_PACKET } from './constants.js';
import { writeErrPre41 } from './packets/err.js';
import { PacketWriter } from './packet-writer.js';
import { serveConnection } from './serve-connection.js';

export interface ServerOptions {
  host: string;
  port: number;
  engine: Engine;
  logger: Logger;
  maxAllowedPacket?: number;
  /** First connection id handed out (default 1); worker processes use disjoint ranges. */
  firstConnectionId?: number;
  /** TLS certificate and key (tls.ts loadTlsContext): CLIENT_SSL is advertised only with it. */
  tls?: SecureContext;
  /**
   * Take connections from here instead of listening (`--workers`: the primary accepts on `port`
   * and hands each socket to a worker in turn, cli/connection-balancer.ts).
   */
  handedSockets?: (accept: (socket: Socket) => void) => void;
}

export interface RunningServer {
  readonly port: number;
  close(graceMs?: number): Promise<CloseReport>;
}

/** How a close() went: connections open when it began, and how many were cut at the deadline. */
export interface CloseReport {
  readonly connections: number;
  readonly cut: number;
  /** Cut connections whose statement still ran CUT_WAIT_MS later (close() stopped waiting). */
  readonly stuck: number;
}

/** After cutting connections, how long close() still waits for their statements to return. */
const CUT_WAIT_MS = 5_000;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const deps = {
    engine: opts.engine,
    logger: opts.logger,
    maxAllowedPacket: opts.maxAllowedPacket ?? DEFAULT_MAX_ALLOWED_PACKET,
    ...(opts.tls !== undefined ? { tls: opts.tls } : {}),
  };
  const live = new Map<Connection, Promise<void>>();
  let nextId = opts.firstConnectionId ?? 1;
  let closing = false;

  const server = createServer({ noDelay: true }, (socket) => {
    if (closing) return refuse(socket, 'ER_SERVER_SHUTDOWN');
    if (live.size >= opts.engine.maxConnections()) {
      opts.logger.warn({ event: 'too-many-connections', open: live.size }, 'connection refused: max_connections reached');
      return refuse(socket, 'ER_CON_COUNT_ERROR');
    }
    const conn = new Connection(socket, nextId++, deps);
    const done = serveConnection(conn).finally(() => live.delete(conn));
    live.set(conn, done);
  });
  server.on('error', (err) => opts.logger.error({ err: err.message }, 'listener error'));
  const handed = opts.handedSockets;
  if (handed !== undefined) {
    handed((socket) => {
      socket.setNoDelay(true);
      server.emit('connection', socket);
    });
  } else {
    await listen(server, opts.host, opts.port);
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : opts.port;
  opts.logger.info({ host: opts.host, port }, 'listening');

  return {
    port,
    async close(graceMs = 0): Promise<CloseReport> {
      closing = true;
      const connections = live.size;
      const closed = handed !== undefined ? Promise.resolve() : new Promise<void>((resolve) => server.close(() => resolve()));
      for (const conn of live.keys()) conn.drain();
      const all = Promise.all([closed, ...live.values()]);
      if (await settlesWithin(all, graceMs)) return { connections, cut: 0, stuck: 0 };
      const cut = live.size;
      for (const conn of live.keys()) conn.destroy();
      const stuck = (await settlesWithin(all, CUT_WAIT_MS)) ? 0 : live.size;
      return { connections, cut, stuck };
    },
  };
}

/**
 * A socket accepted while closing (1053) or beyond max_connections (1040) gets the pre-4.1 ERR
 * that replaces the greeting, then is closed.
 */
function refuse(socket: Socket, error: 'ER_SERVER_SHUTDOWN' | 'ER_CON_COUNT_ERROR'): void {
  const w = new PacketWriter(64);
  writeErrPre41(w, SqlError.of(error));
  socket.on('error', () => undefined);
  socket.end(w.take());
}

/** True if `p` settles within `ms` (false at once when ms <= 0 and it has not). */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
