/**
 * The status server of `shale serve --workers N` runs in the primary process, on the one status
 * port of the node (HAProxy checks one port per node). It answers from the workers over the
 * node:cluster IPC channel:
 *   /metrics  prom-client's AggregatorRegistry: every worker's registry, summed (gauges such as
 *             the schema version and uptime take the maximum);
 *   /health   200 only when all N workers run and each one's own check (health.ts) passes.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { SHUTTING_DOWN, type HealthReport } from './health.js';
import type { StatusHandlers } from './status-server.js';

const HEALTH_REQ = 'shale:health-req';
const HEALTH_RES = 'shale:health-res';
/** How long the primary waits for a worker's answer to a health request. */
const WORKER_ANSWER_MS = 1_500;
/**
 * A worker that does not answer in time (its event loop busy with a long statement, e.g. a bulk
 * INSERT under load) is judged by its last answer if that is younger than this; only a worker
 * silent for longer counts as unhealthy. Without it, HAProxy marked busy nodes down and cut
 * their sessions in the middle of a sysbench prepare.
 */
const LAST_ANSWER_VALID_MS = 10_000;

interface HealthRequest {
  readonly type: typeof HEALTH_REQ;
  readonly id: number;
}

interface HealthResponse {
  readonly type: typeof HEALTH_RES;
  readonly id: number;
  readonly report: HealthReport;
}

function isMessage<T extends { type: string }>(msg: unknown, type: T['type']): msg is T {
  return typeof msg === 'object' && msg !== null && 'type' in msg && msg.type === type;
}

/** In a worker: answers the primary's metrics and health requests for this process. */
export function answerPrimary(registry: Registry, health: () => Promise<HealthReport>): void {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one registers prom-client's worker-side listener for metrics requests.
  new AggregatorRegistry();
  process.on('message', (msg: unknown) => {
    if (!isMessage<HealthRequest>(msg, HEALTH_REQ)) return;
    health().then(
      (report) => process.send?.({ type: HEALTH_RES, id: msg.id, report } satisfies HealthResponse),
      (err: unknown) => {
        const report: HealthReport = { ok: false, status: 'unavailable', error: err instanceof Error ? err.message : String(err) };
        process.send?.({ type: HEALTH_RES, id: msg.id, report } satisfies HealthResponse);
      },
    );
  });
}

/** In the primary: status handlers that ask the `expected` workers. */
export class WorkerStatus implements StatusHandlers {
  private readonly aggregator = new AggregatorRegistry();
  private readonly pending = new Map<number, (report: HealthReport) => void>();
  /** The last report of each worker (by cluster worker id) and when it arrived. */
  private readonly last = new Map<number, { readonly report: HealthReport; readonly at: number }>();
  private nextId = 0;
  private stopping = false;

  constructor(private readonly expected: number) {
    cluster.on('message', (worker: { id: number }, msg: unknown) => {
      if (!isMessage<HealthResponse>(msg, HEALTH_RES)) return;
      // Late answers count too: they keep the worker's last report fresh.
      this.last.set(worker.id, { report: msg.report, at: Date.now() });
      this.pending.get(msg.id)?.(msg.report);
    });
  }

  markStopping(): void {
    this.stopping = true;
  }

  async metrics(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.aggregator.contentType, body: await this.aggregator.clusterMetrics() };
  }

  async health(): Promise<HealthReport> {
    if (this.stopping) return SHUTTING_DOWN;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined && w.isConnected());
    if (workers.length < this.expected) {
      return { ok: false, status: 'unavailable', error: `${workers.length} of ${this.expected} workers running` };
    }
    const reports = await Promise.all(workers.map((w) => (w === undefined ? Promise.resolve(SHUTTING_DOWN) : this.ask(w))));
    const bad = reports.find((r) => !r.ok);
    return bad ?? reports[0] ?? { ok: false, status: 'unavailable', error: 'no workers' };
  }

  /** The worker's last answer if it is recent enough to stand in for a late one. */
  private lastAnswer(workerId: number): HealthReport | undefined {
    const seen = this.last.get(workerId);
    return seen !== undefined && Date.now() - seen.at <= LAST_ANSWER_VALID_MS ? seen.report : undefined;
  }

  private ask(worker: NonNullable<(typeof cluster.workers)>[string]): Promise<HealthReport> {
    const id = this.nextId++;
    return new Promise<HealthReport>((resolve) => {
      const timer = setTimeout(() => {
        // A worker that died meanwhile has no say; a live one that is busy keeps its last answer.
        const alive = worker !== undefined && !worker.isDead() && worker.isConnected();
        done((alive ? this.lastAnswer(worker.id) : undefined) ?? { ok: false, status: 'unavailable', error: `a worker did not answer within ${WORKER_ANSWER_MS} ms` });
      }, WORKER_ANSWER_MS);
      const done = (report: HealthReport): void => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(report);
      };
      this.pending.set(id, done);
      // A worker that died a moment ago may still look connected; its send then fails here
      // (ERR_IPC_CHANNEL_CLOSED) instead of as an unhandled 'error' event.
      const sent = worker?.send({ type: HEALTH_REQ, id } satisfies HealthRequest, undefined, (err: Error | null) => {
        if (err !== null) done({ ok: false, status: 'unavailable', error: `a worker is gone: ${err.message}` });
      });
      if (sent === false && worker?.isConnected() === false) done({ ok: false, status: 'unavailable', error: 'a worker is gone' });
    });
  }
}
