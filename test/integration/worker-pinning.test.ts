/**
 * `shale serve --workers 2` pins worker i to the i-th allowed CPU (src/cli/worker-cpus.ts): the
 * worker's main thread and the libuv pool threads it creates (lmdb-js's writes, the log's
 * fdatasync) run on that CPU, V8's threads stay free. `--no-pin-workers` leaves everything free.
 * Only with one worker per allowed CPU: on a machine without exactly two, nothing is pinned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { allowedCpus } from '../../src/cli/worker-cpus.js';
import { removeDir, spawnNode, tempDir, type SpawnedNode } from '../helpers/node.js';

/** Cpus_allowed_list of thread `tid` of `pid`. */
function cpusOf(pid: number, tid: number | string): string {
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1] ?? '?';
}

/** Cpus_allowed_list of every thread of `pid`. */
function threadCpus(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => cpusOf(pid, tid));
}

/** Pids of the processes whose parent is `ppid`. */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === ppid) out.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Writes through connections until both workers (disjoint connection id ranges) did one. */
async function writeOnBothWorkers(node: SpawnedNode): Promise<void> {
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
  await admin.query('CREATE DATABASE IF NOT EXISTS pin');
  await admin.query('CREATE TABLE IF NOT EXISTS pin.t (id INT PRIMARY KEY AUTO_INCREMENT, v INT)');
  await admin.end();
  const seen = new Set<number>();
  for (let i = 0; i < 10 && seen.size < 2; i++) {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
    await c.query('INSERT INTO pin.t (v) VALUES (?)', [i]);
    seen.add(Math.floor(c.threadId / 100_000_000));
    await c.end();
  }
  expect(seen.size).toBe(2);
}

const linux = process.platform === 'linux';
const cpus = linux ? (allowedCpus() ?? []) : [];
/** This process's CPU list as the kernel writes it ("0-1"): what an unpinned thread has. */
const all = linux ? /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] : undefined;

describe.runIf(linux)('--workers 2 CPU pinning', () => {
  it('pins each worker\'s event loop and pool threads to its own CPU and leaves V8\'s threads free', async () => {
    const dir = tempDir('pin');
    const node = await spawnNode(dir, ['--workers', '2']);
    try {
      const pinned = [...node.startupLog.matchAll(/"event":"worker-pinned","index":(\d+),"pid":(\d+),"cpu":(\d+)/g)].map((m) => ({
        index: Number(m[1]),
        pid: Number(m[2]),
        cpu: Number(m[3]),
      }));
      if (cpus.length !== 2) {
        // One worker per CPU only: on other machines two workers stay unpinned.
        expect(pinned).toEqual([]);
        return;
      }
      expect(pinned.map((p) => p.cpu).sort()).toEqual([cpus[0], cpus[1]]);
      await writeOnBothWorkers(node);
      for (const p of pinned) {
        expect(p.cpu).toBe(cpus[p.index]);
        expect(cpusOf(p.pid, p.pid)).toBe(String(p.cpu)); // the main thread: its tid is the pid
        const threads = threadCpus(p.pid);
        // libuv's pool threads inherit it; V8's platform threads keep every CPU.
        expect(threads.filter((t) => t === String(p.cpu)).length).toBeGreaterThanOrEqual(2);
        expect(threads.filter((t) => t === all).length).toBeGreaterThanOrEqual(1);
      }
    } finally {
      await node.stop();
      removeDir(dir);
    }
  });

  it('a worker that cannot be pinned (no taskset on PATH) says so and serves unpinned', async () => {
    const dir = tempDir('pinfail');
    const node = await spawnNode(dir, ['--workers', '2'], { PATH: '/nonexistent' });
    try {
      if (cpus.length !== 2) {
        expect(node.startupLog).not.toContain('worker-pin');
        return;
      }
      expect([...node.startupLog.matchAll(/"event":"worker-pin-failed"/g)].length).toBe(2);
      expect(node.startupLog).not.toContain('"worker-pinned"');
      await writeOnBothWorkers(node);
      for (const pid of childrenOf(node.child.pid as number)) expect(new Set(threadCpus(pid))).toEqual(new Set([all]));
    } finally {
      await node.stop();
      removeDir(dir);
    }
  });

  it('--no-pin-workers leaves every thread on every CPU', async () => {
    const dir = tempDir('nopin');
    const node = await spawnNode(dir, ['--workers', '2', '--no-pin-workers']);
    try {
      expect(node.startupLog).not.toContain('worker-pinned');
      const workers = childrenOf(node.child.pid as number);
      expect(workers.length).toBe(2);
      for (const pid of workers) expect(new Set(threadCpus(pid))).toEqual(new Set([all]));
    } finally {
      await node.stop();
      removeDir(dir);
    }
  });
});
