/**
 * Preloaded with `--require` into each `shale serve --workers` worker that the primary pins
 * (worker-cpus.ts): runs before the ESM entry point, i.e. before libuv has created its thread
 * pool, and sets the CPU affinity of the main thread alone (`taskset -p`, no `-a`) to
 * SHALE_WORKER_CPU. Threads created afterwards (libuv's pool, which runs lmdb-js's write
 * transactions and the log's fdatasync) inherit it; V8's threads, already running, keep every
 * CPU. The outcome goes to SHALE_WORKER_PINNED for the worker to log: the CPU, or "failed: ...".
 * CommonJS and free of imports of ours, so that nothing else is loaded before it runs.
 */
import childProcess = require('node:child_process');

const cpu = process.env['SHALE_WORKER_CPU'];
if (cpu !== undefined && /^\d+$/.test(cpu)) {
  const r = childProcess.spawnSync('taskset', ['-p', '-c', cpu, String(process.pid)], { stdio: 'ignore', timeout: 5000 });
  process.env['SHALE_WORKER_PINNED'] =
    r.error !== undefined ? `failed: ${r.error.message}` : r.status === 0 ? cpu : `failed: taskset exited with ${String(r.status ?? r.signal)}`;
}
