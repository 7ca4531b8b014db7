/**
 * `shale serve --workers N`: N SQL processes sharing one listening port (the primary accepts and
 * hands each new connection to the next worker in turn, connection-balancer.ts) and one embedded store (LMDB is safe for several processes; each
 * process reads the schema version at every transaction start and reserves its own AUTO_INCREMENT
 * blocks). The primary process supervises: it restarts a worker that dies and forwards
 * SIGTERM/SIGINT so every worker shuts down gracefully. The status HTTP server (/health,
 * /metrics) runs in the primary, answered by the workers over IPC (worker-status.ts), and KILL /
 * PROCESSLIST reach every worker's connections through it (worker-peers.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import { assertSharedOpenSafe, recoverStore } from '../kv/index.js';
import { ConnectionBalancer, reportReady, socketsFromPrimary } from './connection-balancer.js';
import { routePeerQuestions } from './worker-peers.js';
import { startStatus } from './node-ops.js';
import { logRecovered, serveUntilSignal, type ServeOptions } from './serve.js';
import { WorkerStatus } from './worker-status.js';
import { workerExecArgv } from './v8-flags.js';
import { allowedCpus, pinPreloadPath, WORKER_CPU_ENV, WORKER_PINNED_ENV, workerCpus } from './worker-cpus.js';

/** Connection ids of worker i start at i * WORKER_ID_STRIDE + 1 (ids stay below 2^32). */
const WORKER_ID_STRIDE = 100_000_000;

export interface WorkerOptions {
  /** Pin worker i to the i-th allowed CPU (worker-cpus.ts); default true. */
  readonly pin?: boolean;
}

/** Runs `opts` in `workers` processes until a signal; in a worker process, serves directly. */
export async function serveWorkers(opts: ServeOptions, workers: number, wopts: WorkerOptions = {}): Promise<void> {
  if (cluster.isWorker) {
    const index = Number(process.env['SHALE_WORKER_INDEX'] ?? '0');
    logPinned(opts, index);
    const reportToPrimary = opts.status !== undefined;
    await serveUntilSignal({
      ...opts,
      port: Number(process.env['SHALE_LISTEN_PORT'] ?? opts.port),
      handedSockets: socketsFromPrimary,
      onReady: reportReady,
      firstConnectionId: index * WORKER_ID_STRIDE + 1,
      peersViaPrimary: true,
      status: undefined,
      reportToPrimary,
    });
    // The IPC channel to the primary would keep this process alive; everything is closed now.
    process.exit(0);
  }
  await supervise(opts, workers, wopts.pin !== false);
}

/** In a worker: says where pin-worker.cjs put it (nothing when it was not asked to). */
function logPinned(opts: ServeOptions, index: number): void {
  const cpu = process.env[WORKER_CPU_ENV];
  if (cpu === undefined) return;
  const outcome = process.env[WORKER_PINNED_ENV] ?? 'failed: the preload did not run';
  if (outcome === cpu) opts.logger.info({ event: 'worker-pinned', index, pid: process.pid, cpu: Number(cpu) }, 'worker pinned to a CPU');
  else opts.logger.warn({ event: 'worker-pin-failed', index, cpu: Number(cpu), reason: outcome }, 'could not pin the worker to its CPU; it runs on any');
}

/** CPUs for the workers when pinning applies, and the preload that pins them. */
function pinPlan(count: number, pin: boolean, logger: ServeOptions['logger']): { cpus: readonly number[]; preload: string } | undefined {
  if (!pin) return undefined;
  const cpus = workerCpus(count, allowedCpus());
  if (cpus === undefined) return undefined;
  const preload = pinPreloadPath();
  if (preload === undefined) {
    logger.warn({ event: 'worker-pin-unavailable' }, 'pin-worker.cjs is not built (running from source?): workers are not pinned');
    return undefined;
  }
  return { cpus, preload };
}

async function supervise(opts: ServeOptions, count: number, pin: boolean): Promise<void> {
  const logger = opts.logger;
  assertSharedOpenSafe(opts.store);
  // Crash recovery of the embedded store runs here, once, before any worker opens it.
  await recoverStore(opts.store, { onRecovered: (replayed) => logRecovered(logger, replayed) });
  const status = opts.status === undefined ? undefined : { listen: opts.status, workers: new WorkerStatus(count) };
  const statusServer = status === undefined ? undefined : await startStatus(status.listen, status.workers, logger);
  let balancer: ConnectionBalancer;
  try {
    balancer = await ConnectionBalancer.start(opts.host, opts.port, count, logger);
  } catch (err) {
    await statusServer?.close();
    throw err;
  }
  let stopping = false;
  const live = new Set<Worker>();
  const byIndex = new Map<number, Worker>();
  routePeerQuestions((conn) => byIndex.get(Math.floor((conn - 1) / WORKER_ID_STRIDE)));
  const plan = pinPlan(count, pin, logger);
  const cpus = plan?.cpus;
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env['NODE_OPTIONS'], plan === undefined ? [] : ['--require', plan.preload]) });
  const fork = (index: number): void => {
    const cpu = cpus?.[index];
    const worker = cluster.fork({
      SHALE_WORKER_INDEX: String(index),
      SHALE_LISTEN_PORT: String(balancer.port),
      ...(cpu !== undefined ? { [WORKER_CPU_ENV]: String(cpu) } : {}),
    });
    live.add(worker);
    byIndex.set(index, worker);
    // IPC errors of a dying worker (a send racing its exit) must not take the primary down.
    worker.on('error', (err: Error) => logger.warn({ event: 'worker-error', index, err: err.message }, 'worker IPC error'));
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      balancer.removeWorker(worker);
      if (stopping) return;
      logger.error({ event: 'worker-exit', index, code, signal }, 'worker died; starting a new one');
      setTimeout(() => fork(index), 500);
    });
  };
  for (let i = 0; i < count; i++) fork(i);
  logger.info({ event: 'workers-started', workers: count }, 'SQL worker processes started');
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      status?.workers.markStopping();
      logger.info({ event: 'signal', signal }, 'stopping workers');
      for (const w of live) w.process.kill('SIGTERM');
      const check = setInterval(() => {
        if (live.size === 0) {
          clearInterval(check);
          resolve();
        }
      }, 50);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  balancer.close();
  await statusServer?.close();
}
