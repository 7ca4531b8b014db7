/**
 * The TCP listener: one Connection per socket, connection ids from `firstConnectionId` (default 1);
 * close() stops accepting, ends every connection and resolves once the listener and all
 * connections are closed.
 * Spec: /work/shared/reference/mysql-protocol.md §1.2 (errors before the greeting).
 */
import { createServer, type Server, type Socket } from 'node:net';
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
}

export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const deps = {
    engine: opts.engine,
    logger: opts.logger,
    maxAllowedPacket: opts.maxAllowedPacket ?? DEFAULT_MAX_ALLOWED_PACKET,
  };
  const live = new Map<Connection, Promise<void>>();
  let nextId = opts.firstConnectionId ?? 1;
  let closing = false;

  const server = createServer({ noDelay: true }, (socket) => {
    if (closing) return refuse(socket);
    const conn = new Connection(socket, nextId++, deps);
    const done = serveConnection(conn).finally(() => live.delete(conn));
    live.set(conn, done);
  });
  server.on('error', (err) => opts.logger.error({ err: err.message }, 'listener error'));
  await listen(server, opts.host, opts.port);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : opts.port;
  opts.logger.info({ host: opts.host, port }, 'listening');

  return {
    port,
    async close(): Promise<void> {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const conn of live.keys()) conn.destroy();
      await Promise.all([closed, ...live.values()]);
    },
  };
}

/** A socket accepted while closing gets the pre-4.1 ERR that replaces the greeting. */
function refuse(socket: Socket): void {
  const w = new PacketWriter(64);
  writeErrPre41(w, SqlError.of('ER_SERVER_SHUTDOWN'));
  socket.on('error', () => undefined);
  socket.end(w.take());
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
