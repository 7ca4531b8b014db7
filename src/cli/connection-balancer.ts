/**
 * `shale serve --workers N`: the primary accepts client connections itself and hands each socket
 * to the next ready worker in turn (strict round robin), instead of node:cluster's scheduling,
 * which gives a burst of connections to whichever worker asks first (8 sysbench connections
 * often landed 6/2 on two workers, leaving one core idle). Sockets are accepted paused and
 * passed over the IPC channel before any byte is read, so the worker sends the MySQL greeting.
 *
 * At start-up, connections wait until every worker has reported ready (at most STARTUP_HOLD_MS):
 * a connection pool opened as soon as the first worker logs "ready" would otherwise land wholly on
 * that worker and stay there. Later, a restarting worker holds nothing up.
 *
 * Messages: primary -> worker `{ type: 'shale:conn' }` with the socket as the handle;
 * worker -> primary `{ type: 'shale:ready' }` once its SQL engine can take connections.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, Socket, type Server } from 'node:net';
import type { Logger } from 'pino';
import { listen } from '../util/index.js';

const CONN = 'shale:conn';
const READY = 'shale:ready';
/** The longest start-up wait for every worker to be ready before connections go to those that are. */
const STARTUP_HOLD_MS = 10_000;

function isType(msg: unknown, type: string): boolean {
  return typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === type;
}

/** In the primary: the listener that deals connections out to the workers. */
export class ConnectionBalancer {
  private readonly ready: Worker[] = [];
  /** Connections accepted while no worker was ready (start-up, every worker restarting). */
  private readonly waiting: Socket[] = [];
  private next = 0;
  /** Start-up: set until `workers` workers reported ready or the hold timed out. */
  private startupHold: NodeJS.Timeout | undefined;
  private readonly onMessage = (worker: Worker, msg: unknown): void => {
    if (!isType(msg, READY) || this.ready.includes(worker)) return;
    this.ready.push(worker);
    if (this.startupHold !== undefined && this.ready.length < this.workers) return;
    this.endStartupHold();
  };

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly workers: number,
    private readonly logger: Logger,
  ) {
    cluster.on('message', this.onMessage);
    this.startupHold = setTimeout(() => this.endStartupHold(), STARTUP_HOLD_MS);
    this.startupHold.unref();
  }

  /** Listens on host:port for `workers` workers (connections wait until all of them are ready, see above). */
  static async start(host: string, port: number, workers: number, logger: Logger): Promise<ConnectionBalancer> {
    const server = createServer({ pauseOnConnect: true, noDelay: true });
    server.on('error', (err) => logger.error({ err: err.message }, 'listener error'));
    await listen(server, host, port);
    const address = server.address();
    const balancer = new ConnectionBalancer(server, typeof address === 'object' && address !== null ? address.port : port, workers, logger);
    server.on('connection', (socket: Socket) => balancer.dispatch(socket));
    return balancer;
  }

  /** A worker exited: it gets no more connections. */
  removeWorker(worker: Worker): void {
    const i = this.ready.indexOf(worker);
    if (i >= 0) this.ready.splice(i, 1);
  }

  /**
   * Stops accepting; connections not yet handed out are closed. Does not wait for close's
   * callback: the server still counts the sockets it handed to workers as its own connections.
   */
  close(): void {
    clearTimeout(this.startupHold);
    cluster.off('message', this.onMessage);
    for (const socket of this.waiting.splice(0)) socket.destroy();
    this.server.close();
  }

  private endStartupHold(): void {
    clearTimeout(this.startupHold);
    this.startupHold = undefined;
    for (const socket of this.waiting.splice(0)) this.dispatch(socket);
  }

  private dispatch(socket: Socket): void {
    if (this.ready.length === 0 || this.startupHold !== undefined) {
      this.waiting.push(socket);
      return;
    }
    const worker = this.ready[this.next++ % this.ready.length] as Worker;
    socket.on('error', () => undefined);
    worker.send({ type: CONN }, socket, { keepOpen: false }, (err: Error | null) => {
      if (err === null) return;
      // The worker is going away: give the connection to another one.
      this.logger.warn({ event: 'handoff-failed', err: err.message }, 'could not hand a connection to a worker');
      this.removeWorker(worker);
      if (!socket.destroyed) this.dispatch(socket);
    });
  }
}

/** In a worker: the source of connections handed over by the primary (for startServer's handedSockets). */
export function socketsFromPrimary(accept: (socket: Socket) => void): void {
  process.on('message', (msg: unknown, handle: unknown) => {
    if (isType(msg, CONN) && handle instanceof Socket) accept(handle);
  });
}

/** In a worker: tells the primary to start handing it connections. */
export function reportReady(): void {
  process.send?.({ type: READY });
}
