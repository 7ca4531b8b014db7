/**
 * CPU pinning of `shale serve --workers N` (on by default, `--no-pin-workers` turns it off). With
 * exactly as many workers as CPUs, worker i runs on the i-th CPU this process may use: its event loop and
 * libuv's pool threads (which run lmdb-js's write transactions and the redo log's `fdatasync`)
 * share that CPU, so the hand-offs of a commit between them are wake-ups on one CPU instead of
 * interrupts across CPUs, and the two workers' event loops never crowd onto one core. V8's own
 * threads (garbage collection, compilation) stay free to run anywhere, so a worker with little
 * to do still collects garbage on an idle core. Measured on 2 cores: single-row writes at 8
 * client threads 4–25 % faster, reads unchanged (ARCHITECTURE.md, "Processes").
 *
 * How: the primary forks worker i with SHALE_WORKER_CPU=<cpu> and `--require pin-worker.cjs`,
 * which pins the worker's main thread (only) before libuv creates its pool; threads created later
 * inherit the main thread's CPU set, the V8 threads created before keep theirs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The environment variable naming the worker's CPU (read by pin-worker.cjs). */
export const WORKER_CPU_ENV = 'SHALE_WORKER_CPU';
/** Set by pin-worker.cjs: the CPU on success, "failed: ..." otherwise. */
export const WORKER_PINNED_ENV = 'SHALE_WORKER_PINNED';

/** "0-3,8,10-11" → [0, 1, 2, 3, 8, 10, 11]; undefined for anything else. */
export function parseCpuList(text: string): number[] | undefined {
  const cpus: number[] = [];
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 4096) return undefined;
    for (let c = from; c <= to; c++) cpus.push(c);
  }
  return cpus.length > 0 ? cpus : undefined;
}

/** The CPUs this process may run on (Linux: /proc/self/status); undefined where unknown. */
export function allowedCpus(statusText?: string): number[] | undefined {
  let text = statusText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/status', 'utf8');
    } catch {
      return undefined;
    }
  }
  const m = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(text);
  return m === null ? undefined : parseCpuList(m[1] as string);
}

/**
 * The CPU of each of `workers` workers, or undefined (no pinning). Only when there is one worker
 * per allowed CPU, i.e. the server was sized to take the whole machine (or its container's CPU
 * set): with fewer workers than CPUs, pinning every server's workers to the first CPUs would crowd
 * several servers (or containers limited by a CPU quota rather than a CPU set) onto the same
 * cores while others idle; with more, the scheduler balances better alone.
 */
export function workerCpus(workers: number, cpus: readonly number[] | undefined): readonly number[] | undefined {
  if (cpus === undefined || workers < 2 || workers !== cpus.length) return undefined;
  return cpus.slice();
}

/** The preload that pins a worker (dist/cli/pin-worker.cjs); undefined when not built (run from source). */
export function pinPreloadPath(): string | undefined {
  const path = fileURLToPath(new URL('./pin-worker.cjs', import.meta.url));
  return existsSync(path) ? path : undefined;
}
