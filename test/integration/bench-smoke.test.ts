/**
 * Smoke test of `npm run bench` (sysbench/bench.ts): one tiny run of every workload against ShaleDB
 * and a private MariaDB; checks the harness starts and stops both servers, measures every run (each
 * workload on both servers back to back, the default order) and writes the markdown, JSON and SVG. No timing assertions: only that numbers exist.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../sysbench/bench/results.js';
import { WORKLOADS } from '../../sysbench/bench/sysbench-cmd.js';
import { findExecutable } from '../../src/cli/cluster/processes.js';
import { REPO_ROOT, removeDir, tempDir } from '../helpers/node.js';

const run = promisify(execFile);
const mariadbd = findExecutable('mariadbd');

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A base port with base and base+1 free (the harness's ShaleDB and MariaDB ports). */
async function pickBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    if ((await portFree(base)) && (await portFree(base + 1))) return base;
  }
}

describe.skipIf(mariadbd === undefined)('npm run bench -- --smoke', () => {
  const out = tempDir('bench-smoke');
  afterAll(() => removeDir(out));

  it('measures every workload on both servers and writes the reports', async () => {
    const base = await pickBase();
    const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
    const { stdout } = await run(tsx, ['sysbench/bench.ts', '--smoke', '--time', '1', '--threads', '1', '--port-base', String(base), '--out', out, '--name', 'smoke'], {
      cwd: REPO_ROOT,
      maxBuffer: 16 << 20,
      timeout: 240_000,
    });
    expect(stdout).toContain('| oltp_point_select |');
    const results = JSON.parse(readFileSync(join(out, 'smoke.json'), 'utf8')) as BenchResults;
    expect(results.servers.map((s) => s.name)).toEqual(['shaledb', 'mariadb']);
    for (const s of results.servers) {
      expect(s.bulkLoadSeconds).toBeGreaterThan(0);
      expect(s.bulkLoadRuns).toEqual([s.bulkLoadSeconds]);
    }
    expect(results.runs).toHaveLength(2 * WORKLOADS.length);
    // The default --order interleaved: each workload ran on both servers back to back.
    expect(results.params.order).toBe('interleaved');
    for (let i = 0; i < results.runs.length; i += 2) {
      const [a, b] = [results.runs[i], results.runs[i + 1]];
      expect(a?.workload).toBe(b?.workload);
      expect(new Set([a?.server, b?.server])).toEqual(new Set(['shaledb', 'mariadb']));
    }
    for (const r of results.runs) {
      expect(r.error, `${r.server} ${r.workload}`).toBeUndefined();
      expect(r.numbers?.tps, `${r.server} ${r.workload}`).toBeGreaterThan(0);
      expect(r.numbers?.p99Ms, `${r.server} ${r.workload}`).toBeGreaterThan(0);
      // The machine's CPU over the run, from /proc/stat (this suite runs on Linux).
      expect(r.cpu?.stealPct, `${r.server} ${r.workload}`).toBeGreaterThanOrEqual(0);
      expect(r.cpu?.idlePct, `${r.server} ${r.workload}`).toBeLessThanOrEqual(100);
      // The server's resident memory after the run (a Node or mariadbd process holds tens of MiB).
      expect(r.rssMiB, `${r.server} ${r.workload}`).toBeGreaterThan(10);
      expect(r.anonMiB, `${r.server} ${r.workload}`).toBeGreaterThan(1);
      expect(r.anonMiB, `${r.server} ${r.workload}`).toBeLessThanOrEqual(r.rssMiB as number);
      // The server's CPU per transaction over the run (every server works for each transaction).
      const cpu = (r.serverCpu?.userUs ?? 0) + (r.serverCpu?.systemUs ?? 0);
      expect(cpu, `${r.server} ${r.workload}`).toBeGreaterThan(0);
      // sysbench's own CPU per transaction (a client issuing statements for 2 s uses some).
      expect((r.clientCpu?.userUs ?? 0) + (r.clientCpu?.systemUs ?? 0), `${r.server} ${r.workload}`).toBeGreaterThan(0);
    }
    for (const s of results.servers) {
      expect(s.bulkLoadCpu?.[0]?.stealPct).toBeGreaterThanOrEqual(0);
      // Each load's server CPU is recorded. /proc counts it in 10 ms clock ticks, and the smoke
      // load (200 rows) can take MariaDB less than one, so zero is a valid reading here; that
      // CPU is counted at all is what the runs above (> 0 over 2 s) and process-cpu.test.ts check.
      const load = s.bulkLoadServerCpu?.[0];
      expect(load ?? null, s.name).not.toBeNull();
      for (const v of [load?.userS, load?.systemS]) {
        expect(Number.isFinite(v), s.name).toBe(true);
        expect(v, s.name).toBeGreaterThanOrEqual(0);
      }
    }
    expect(readFileSync(join(out, 'smoke.svg'), 'utf8')).toMatch(/^<svg [^]*<\/svg>\n$/);
    const md = readFileSync(join(out, 'smoke.md'), 'utf8');
    expect(md).toContain('shaledb/mariadb TPS');
    expect(md).toMatch(/\| oltp_point_select \| \d+ \(\d+ \+ \d+\) \| \d+ \(\d+ \+ \d+\) \| \d+\.\d\d \|/);
    expect(md).toMatch(/Machine CPU during these runs \(\/proc\/stat\): steal median \d+\.\d %/);
    expect(md).toMatch(/Server memory \(resident, all its processes, after each run\): ShaleDB[^\n]* \d+ MiB after its first run/);
    expect(md).toMatch(/Of which anonymous \(heaps and buffers[^\n]*\): ShaleDB[^\n]* \d+ MiB after its first run/);
    // Both servers were stopped: their ports are free again.
    expect(await portFree(base)).toBe(true);
    expect(await portFree(base + 1)).toBe(true);
  }, 300_000);

  it('--repeat loads again in every round (dropping the last round\'s tables) and runs every round', async () => {
    const base = await pickBase();
    const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
    const args = ['sysbench/bench.ts', '--smoke', '--time', '1', '--threads', '1', '--workloads', 'oltp_point_select', '--repeat', '2'];
    await run(tsx, [...args, '--port-base', String(base), '--out', out, '--name', 'smoke-repeat'], { cwd: REPO_ROOT, maxBuffer: 16 << 20, timeout: 240_000 });
    const results = JSON.parse(readFileSync(join(out, 'smoke-repeat.json'), 'utf8')) as BenchResults;
    for (const s of results.servers) {
      expect(s.bulkLoadRuns).toHaveLength(2);
      for (const t of s.bulkLoadRuns ?? []) expect(t).toBeGreaterThan(0);
    }
    for (const round of [1, 2]) {
      expect(new Set(results.runs.filter((r) => r.round === round).map((r) => r.server))).toEqual(new Set(['shaledb', 'mariadb']));
    }
    expect(results.runs).toHaveLength(4);
    for (const r of results.runs) expect(r.error, `${r.server} round ${r.round ?? 1}`).toBeUndefined();
    expect(readFileSync(join(out, 'smoke-repeat.md'), 'utf8')).toContain('Loaded 2 times, the servers taking turns');
    expect(await portFree(base)).toBe(true);
    expect(await portFree(base + 1)).toBe(true);
  }, 300_000);
});
