/**
 * The operations side of one SQL process: metrics (an EngineObserver plus a KV store wrapper
 * that times reads and commits), the health check, and either the status HTTP server or, in a
 * `--workers` worker, the answers to the primary's status requests (worker-status.ts).
 */
import type { Logger } from 'pino';
import type { Store } from '../kv/index.js';
import type { EngineObserver } from '../sql/session/index.js';
import { StoreHealth, type HealthReport } from './health.js';
import { instrumentStore } from './instrumented-store.js';
import { ShaleMetrics } from './metrics.js';
import { startStatusServer, type StatusHandlers, type StatusServer } from './status-server.js';
import { answerPrimary } from './worker-status.js';

/** The status port of TiDB, which tools and dashboards expect. */
export const DEFAULT_STATUS_PORT = 10080;

const STARTING: HealthReport = { ok: false, status: 'unavailable', error: 'starting' };

export interface StatusListen {
  readonly host: string;
  readonly port: number;
  /** The port was asked for explicitly: failing to listen on it stops the start-up. */
  readonly required: boolean;
}

export interface NodeOpsOptions {
  /** Serve /health and /metrics here; omitted: no status server in this process. */
  readonly status?: StatusListen;
  /** A `--workers` worker: answer the primary's status requests instead. */
  readonly reportToPrimary?: boolean;
  readonly logger: Logger;
}

export interface NodeOps {
  /** The store the engine should use (timed when metrics are on). */
  readonly store: Store;
  readonly observer: EngineObserver | undefined;
  readonly health: StoreHealth;
  /** Starts the status server (a worker: reports healthy from now on); call once the SQL listener runs. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function nodeOps(kv: Store, opts: NodeOpsOptions): NodeOps {
  const health = new StoreHealth(kv);
  const metrics = opts.status !== undefined || opts.reportToPrimary === true ? new ShaleMetrics() : undefined;
  let server: StatusServer | undefined;
  let started = false;
  if (metrics !== undefined && opts.reportToPrimary === true) {
    // Metrics from now on; healthy only once start() says the SQL listener is up.
    answerPrimary(metrics.registry, () => (started ? health.check() : Promise.resolve(STARTING)));
  }
  return {
    store: metrics === undefined ? kv : instrumentStore(kv, metrics),
    observer: metrics,
    health,
    async start() {
      started = true;
      if (metrics === undefined || opts.status === undefined) return;
      server = await startStatus(opts.status, {
        health: () => health.check(),
        metrics: async () => ({ contentType: metrics.contentType, body: await metrics.text() }),
      }, opts.logger);
    },
    async close() {
      await server?.close();
    },
  };
}

/**
 * Starts the status server. A busy port is an error when the port was given explicitly;
 * otherwise (the default 10080, e.g. taken by another node on this machine) it is logged and the
 * node runs without one.
 */
export async function startStatus(listen: StatusListen, handlers: StatusHandlers, logger: Logger): Promise<StatusServer | undefined> {
  try {
    return await startStatusServer({ host: listen.host, port: listen.port, handlers, logger });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (listen.required) throw new Error(`--status-port ${listen.port}: ${msg}`);
    logger.warn(
      { event: 'status-unavailable', host: listen.host, port: listen.port, err: msg },
      'status HTTP server not started (give --status-port to choose another port)',
    );
    return undefined;
  }
}
