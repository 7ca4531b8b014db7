import type { SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { SCHEMA_VERSION_KEY } from '../catalog/index.js';
import { openStore } from '../kv/index.js';
import { createTxnStore } from '../txn/index.js';
import { createEngine } from '../sql/session/index.js';
import { loadTlsContext, startServer, type RunningServer, type ServerOptions } from '../server/index.js';
import { nodeOps, type StatusListen } from './node-ops.js';
import { answerPeers, PrimaryPeers } from './worker-peers.js';

/** Default of `--shutdown-timeout`: how long running statements may finish after SIGTERM. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** After a shutdown, a process still kept alive by something exits anyway after this long. */
const FORCED_EXIT_MS = 5_000;

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  /** KV store URL: `lmdb://<dir>`, a plain directory, or `etcd://host:port,...[/prefix]`. */
  readonly store: string;
  /** Password of 'root'@'%' on the first start only (the store holds no accounts yet). */
  readonly rootPassword?: string;
  readonly logger: Logger;
  /** First MySQL connection id of this process (worker processes use disjoint ranges). */
  readonly firstConnectionId?: number;
  /** Status HTTP server (/health, /metrics); omitted: none in this process. */
  readonly status?: StatusListen;
  /** A `--workers` worker: metrics and health go to the primary's status server. */
  readonly reportToPrimary?: boolean;
  /** A `--workers` worker: KILL and PROCESSLIST also reach the other workers' connections, through the primary. */
  readonly peersViaPrimary?: boolean;
  /** A `--workers` worker: connections come from the primary instead of a listener of its own. */
  readonly handedSockets?: ServerOptions['handedSockets'];
  /** Called once the node takes connections (a worker tells the primary). */
  readonly onReady?: () => void;
  /** Initial @@global.long_query_time in ms (`--slow-query-ms`); default MySQL's 10 s. */
  readonly slowQueryMs?: number;
  /** How long stop() lets running statements finish before cutting connections (ms). */
  readonly shutdownTimeoutMs?: number;
  /** PEM certificate and key files (`--tls-cert`, `--tls-key`): clients may then use TLS. */
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  /** `--require-secure-transport`: refuse non-TLS connections (needs tlsCert/tlsKey). */
  readonly requireSecureTransport?: boolean;
  /**
   * The embedded store's write watchdog fired (a write unfinished for a minute: lmdb-js stalled,
   * holding LMDB's write lock). `shale serve` exits with code 1 so that its supervisor (the
   * `--workers` primary, systemd, Docker) starts it afresh; embedders decide themselves.
   */
  readonly onStoreStuck?: () => void;
}

export interface RunningNode {
  readonly port: number;
  /**
   * Stops accepting, lets running statements finish (up to shutdownTimeoutMs), closes the
   * connections (rolling back open transactions) and closes the store.
   */
  stop(): Promise<void>;
}

/** The embedded store recovered after a reboot or OS crash (kv/embedded/recovery.ts). */
export function logRecovered(logger: Logger, replayed: number): void {
  logger.warn({ event: 'store_recovered', replayed }, `store recovered after a reboot or crash: ${replayed} logged transactions replayed`);
}

/** Opens the store, the SQL engine and the MySQL listener: one ShaleDB SQL node. */
export async function startNode(opts: ServeOptions): Promise<RunningNode> {
  const tls = loadServeTls(opts);
  const rawKv = await openStore(opts.store, {
    hotKey: SCHEMA_VERSION_KEY,
    onBackgroundError: (what, err) =>
      opts.logger.warn({ event: 'kv_background_error', what, err: err instanceof Error ? err.message : String(err) }, 'KV background work failed'),
    onStuckWrite: (ageMs) => {
      opts.logger.fatal({ event: 'kv_write_stuck', ageMs }, `a store write has not finished for ${Math.round(ageMs / 1000)} s; the storage engine is stalled`);
      opts.onStoreStuck?.();
    },
    onRecovered: (replayed) => logRecovered(opts.logger, replayed),
  });
  const ops = nodeOps(rawKv, opts);
  const kv = ops.store;
  const engine = await createEngine(createTxnStore(kv), {
    logger: opts.logger,
    ...(ops.observer !== undefined ? { observer: ops.observer } : {}),
    ...(opts.slowQueryMs !== undefined ? { longQueryTime: opts.slowQueryMs / 1000 } : {}),
    ...(opts.rootPassword !== undefined ? { rootPassword: opts.rootPassword } : {}),
    tls: tls !== undefined,
    requireSecureTransport: opts.requireSecureTransport === true,
    ...(opts.peersViaPrimary === true ? { peers: new PrimaryPeers() } : {}),
  });
  if (opts.peersViaPrimary === true) answerPeers(engine);
  let server: RunningServer;
  try {
    server = await startServer({
      host: opts.host,
      port: opts.port,
      engine,
      logger: opts.logger,
      ...(opts.firstConnectionId !== undefined ? { firstConnectionId: opts.firstConnectionId } : {}),
      ...(tls !== undefined ? { tls } : {}),
      ...(opts.handedSockets !== undefined ? { handedSockets: opts.handedSockets } : {}),
    });
  } catch (err) {
    await engine.close();
    await kv.close();
    throw err;
  }
  try {
    await ops.start();
  } catch (err) {
    await server.close();
    await engine.close();
    await kv.close();
    throw err;
  }
  opts.logger.info({ event: 'listening', host: opts.host, port: server.port, store: kv.url }, 'ShaleDB ready');
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const log = opts.logger;
      const graceMs = opts.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      ops.health.markStopping();
      log.info({ event: 'shutdown-drain', graceMs }, 'not accepting connections; letting running statements finish');
      const closed = await server.close(graceMs);
      const level = closed.cut > 0 ? 'warn' : 'info';
      log[level]({ event: 'shutdown-connections-closed', ...closed }, closed.cut > 0 ? 'deadline passed: cut connections still running a statement' : 'client connections closed');
      await engine.close();
      await ops.close();
      await kv.close();
      log.info({ event: 'store-closed', store: kv.url }, 'store closed');
      log.info({ event: 'stopped' }, 'ShaleDB stopped');
    })();
    return stopping;
  };
  return { port: server.port, stop };
}

/**
 * The TLS context of `--tls-cert`/`--tls-key`, or undefined without them. Throws an Error naming
 * the flag or file at fault (called before anything starts, and by the primary of --workers).
 */
export function loadServeTls(opts: ServeOptions): SecureContext | undefined {
  if (opts.tlsCert === undefined && opts.tlsKey === undefined) {
    if (opts.requireSecureTransport === true) throw new Error('--require-secure-transport needs TLS: give --tls-cert and --tls-key');
    return undefined;
  }
  if (opts.tlsCert === undefined || opts.tlsKey === undefined) throw new Error('--tls-cert and --tls-key must be given together');
  return loadTlsContext(opts.tlsCert, opts.tlsKey);
}

/**
 * Runs a node until SIGTERM/SIGINT, then shuts down gracefully. Further signals during the
 * shutdown are absorbed (a supervisor and a terminal may both signal a worker).
 */
export async function serveUntilSignal(opts: ServeOptions): Promise<void> {
  const node = await startNode({ onStoreStuck: () => process.exit(1), ...opts });
  opts.onReady?.();
  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      opts.logger.info({ event: 'signal', signal }, 'shutting down');
      node.stop().then(resolve, (err: unknown) => {
        opts.logger.error({ event: 'shutdown-failed', err }, 'shutdown failed');
        resolve();
      });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  // Whatever still holds the event loop (a statement that ignored the deadline) may not keep the
  // process alive; the timer does not hold it either.
  setTimeout(() => {
    opts.logger.warn({ event: 'forced-exit' }, 'still running after shutdown; exiting');
    process.exit(1);
  }, FORCED_EXIT_MS).unref();
}
