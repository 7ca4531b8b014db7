import type { Logger } from 'pino';
import { SCHEMA_VERSION_KEY } from '../catalog/index.js';
import { openStore } from '../kv/index.js';
import { createTxnStore } from '../txn/index.js';
import { createEngine } from '../sql/session/index.js';
import { startServer, type RunningServer } from '../server/index.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  /** KV store URL: `lmdb://<dir>`, a plain directory, or `etcd://host:port,...[/prefix]`. */
  readonly store: string;
  readonly rootPassword?: string;
  readonly logger: Logger;
  /** First MySQL connection id of this process (worker processes use disjoint ranges). */
  readonly firstConnectionId?: number;
}

export interface RunningNode {
  readonly port: number;
  /** Stops accepting, closes connections (rolling back open transactions) and closes the store. */
  stop(): Promise<void>;
}

/** Opens the store, the SQL engine and the MySQL listener: one ShaleDB SQL node. */
export async function startNode(opts: ServeOptions): Promise<RunningNode> {
  const kv = await openStore(opts.store, {
    hotKey: SCHEMA_VERSION_KEY,
    onBackgroundError: (what, err) =>
      opts.logger.warn({ event: 'kv_background_error', what, err: err instanceof Error ? err.message : String(err) }, 'KV background work failed'),
  });
  const engine = await createEngine(createTxnStore(kv), {
    logger: opts.logger,
    ...(opts.rootPassword !== undefined ? { rootPassword: opts.rootPassword } : {}),
  });
  let server: RunningServer;
  try {
    server = await startServer({
      host: opts.host,
      port: opts.port,
      engine,
      logger: opts.logger,
      ...(opts.firstConnectionId !== undefined ? { firstConnectionId: opts.firstConnectionId } : {}),
    });
  } catch (err) {
    await engine.close();
    await kv.close();
    throw err;
  }
  opts.logger.info({ event: 'listening', host: opts.host, port: server.port, store: kv.url }, 'ShaleDB ready');
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await server.close();
      await engine.close();
      await kv.close();
      opts.logger.info({ event: 'stopped' }, 'ShaleDB stopped');
    })();
    return stopping;
  };
  return { port: server.port, stop };
}

/**
 * Runs a node until SIGTERM/SIGINT, then shuts down gracefully. Further signals during the
 * shutdown are absorbed (a supervisor and a terminal may both signal a worker).
 */
export async function serveUntilSignal(opts: ServeOptions): Promise<void> {
  const node = await startNode(opts);
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
}
