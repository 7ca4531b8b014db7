/** The harness's markdown table and SVG chart from a known result set. */
import { describe, expect, it } from 'vitest';
import { niceMax, svgChart } from '../../sysbench/bench/chart.js';
import { markdownReport } from '../../sysbench/bench/markdown.js';
import type { RunNumbers } from '../../sysbench/bench/report-parse.js';
import type { BenchResults } from '../../sysbench/bench/results.js';

function numbers(tps: number, p99: number): RunNumbers {
  return { tps, qps: tps * 2, avgMs: 1, p95Ms: p99 / 2, p99Ms: p99, p99Reported: p99, ignoredPerSec: 0, events: tps };
}

const results: BenchResults = {
  startedAt: '2026-12-01T00:00:00.000Z',
  machine: { cores: 2, node: '20.0.0', sysbench: '1.0.20', commit: 'abc1234' },
  params: { tables: 4, tableSize: 100000, seconds: 30, threads: [1, 8], workloads: ['oltp_point_select', 'oltp_insert'], workers: 1 },
  servers: [
    { name: 'shaledb', label: 'ShaleDB (embedded)', version: '8.0.11-ShaleDB', bulkLoadSeconds: 3 },
    { name: 'mariadb', label: 'MariaDB', version: '10.11', bulkLoadSeconds: 2 },
  ],
  runs: [
    { server: 'shaledb', workload: 'oltp_point_select', threads: 1, numbers: numbers(1500, 3) },
    { server: 'shaledb', workload: 'oltp_point_select', threads: 8, numbers: numbers(6000, 4) },
    { server: 'shaledb', workload: 'oltp_insert', threads: 1, numbers: null, error: 'sysbench exited with 1' },
    { server: 'shaledb', workload: 'oltp_insert', threads: 8, numbers: numbers(900, 12) },
    { server: 'mariadb', workload: 'oltp_point_select', threads: 1, numbers: numbers(1000, 1) },
    { server: 'mariadb', workload: 'oltp_point_select', threads: 8, numbers: numbers(8000, 2) },
    { server: 'mariadb', workload: 'oltp_insert', threads: 1, numbers: numbers(300, 5) },
    { server: 'mariadb', workload: 'oltp_insert', threads: 8, numbers: numbers(1200, 6) },
  ],
};

describe('markdownReport', () => {
  const md = markdownReport(results);
  it('has one table per thread count with TPS and p99 ratios', () => {
    expect(md).toContain('## 1 thread\n');
    expect(md).toContain('## 8 threads\n');
    const row8 = md.split('## 8 threads')[1]?.split('\n').find((l) => l.startsWith('| oltp_point_select'));
    // 6000 / 8000 TPS = 0.75; p99 4 / 2 = 2.00
    expect(row8?.endsWith('| 0.75 | 2.00 |')).toBe(true);
    const insert1 = md.split('## 1 thread')[1]?.split('\n').find((l) => l.startsWith('| oltp_insert'));
    expect(insert1?.endsWith('| - | - |')).toBe(true);
  });
  it('says in which order the runs were made (results from before --order ran sequentially)', () => {
    expect(md).toContain('threads 1, 8, one server after the other;');
    const interleaved = markdownReport({ ...results, params: { ...results.params, order: 'interleaved' } });
    expect(interleaved).toContain('threads 1, 8, each workload run on every server back to back;');
  });
  it('--repeat: a server shows its median-TPS round, a ratio the median of per-round ratios and their range', () => {
    const rounds = (server: 'shaledb' | 'mariadb', tps: number[]): BenchResults['runs'] =>
      tps.map((t, i) => ({ server, workload: 'oltp_point_select', threads: 8, round: i + 1, numbers: numbers(t, t / 1000) }));
    const repeated: BenchResults = {
      ...results,
      params: { ...results.params, threads: [8], workloads: ['oltp_point_select'], rounds: 3 },
      runs: [...rounds('shaledb', [6000, 3000, 4500]), ...rounds('mariadb', [8000, 6000, 5000])],
    };
    const out = markdownReport(repeated);
    expect(out).toContain('Each measurement ran 3 times');
    const row = out.split('\n').find((l) => l.startsWith('| oltp_point_select'));
    // ShaleDB's median-TPS round is 4500, MariaDB's 6000; per-round TPS ratios 0.75, 0.50, 0.90.
    expect(row?.startsWith('| oltp_point_select | 4500.0 |')).toBe(true);
    expect(row).toContain('| 6000.0 |');
    expect(row?.endsWith('| 0.75 (0.50–0.90) | 0.75 (0.50–0.90) |')).toBe(true);
  });
  it('reports bulk load with its ratio and the failed runs', () => {
    expect(md).toContain('| ShaleDB (embedded) | 3.00 | 1.50 |');
    expect(md).not.toContain('Loaded ');
    expect(md).toContain('- shaledb oltp_insert 1 threads: sysbench exited with 1');
  });
  it('--repeat: bulk load gives the median time and the median of per-round ratios, with ranges', () => {
    const repeated: BenchResults = {
      ...results,
      servers: [
        { name: 'shaledb', label: 'ShaleDB (embedded)', version: '8.0.11-ShaleDB', bulkLoadSeconds: 5, bulkLoadRuns: [6, 5, 4] },
        { name: 'mariadb', label: 'MariaDB', version: '10.11', bulkLoadSeconds: 2, bulkLoadRuns: [2, 2.5, 1] },
      ],
    };
    const out = markdownReport(repeated);
    expect(out).toContain('Loaded 3 times, the servers taking turns');
    // Per-round ratios 3.00, 2.00, 4.00: median 3.00. A median of the times (5 / 2) would say 2.50.
    expect(out).toContain('| ShaleDB (embedded) | 5.00 (4.00–6.00) | 3.00 (2.00–4.00) |');
    expect(out).toContain('| MariaDB | 2.00 (1.00–2.50) | 1.00 (1.00–1.00) |');
  });
  it('gives the CPU steal of the runs and loads that recorded it, and nothing for older results', () => {
    expect(md).not.toContain('steal');
    const cpu = (stealPct: number): { stealPct: number; idlePct: number } => ({ stealPct, idlePct: 20 });
    const withCpu: BenchResults = {
      ...results,
      servers: [
        { ...(results.servers[0] as BenchResults['servers'][number]), bulkLoadCpu: [cpu(2.5), null] },
        results.servers[1] as BenchResults['servers'][number],
      ],
      runs: results.runs.map((x, i) => (x.threads === 8 ? { ...x, round: 1, cpu: cpu([1, 12, 3, 0.5][i % 4] as number) } : x)),
    };
    const out = markdownReport(withCpu);
    // 8-thread runs in order: shaledb point_select (idx 1 -> 12), shaledb insert (idx 3 -> 0.5),
    // mariadb point_select (idx 5 -> 12), mariadb insert (idx 7 -> 0.5): median 6.25, max 12.
    const eight = out.split('## 8 threads')[1] ?? '';
    expect(eight).toContain('steal median 6.3 %, max 12.0 % (shaledb oltp_point_select, round 1), 2 of 4 runs at 10 % or more; idle median 20.0 %.');
    expect(out.split('## 8 threads')[0]).not.toContain('steal median');
    expect(out).toContain('Machine CPU steal during each load, in round order:\n\n- ShaleDB (embedded): 2.5 / - %\n');
    // MariaDB recorded no CPU for its load: no line for it in that list.
    expect(out.split('during each load')[1]?.split('\n\n')[1]).toBe('- ShaleDB (embedded): 2.5 / - %');
  });
  it("gives each server's CPU per transaction in the shown run and the ratio paired by round, and nothing for older results", () => {
    expect(md).not.toContain('Server CPU per transaction');
    const cpu = (userUs: number, systemUs: number): { userUs: number; systemUs: number } => ({ userUs, systemUs });
    const run = (server: 'shaledb' | 'mariadb', round: number, tps: number, c: { userUs: number; systemUs: number } | undefined): BenchResults['runs'][number] => ({
      server, workload: 'oltp_point_select', threads: 8, round, numbers: numbers(tps, 1), ...(c === undefined ? {} : { serverCpu: c }),
    });
    const withCpu: BenchResults = {
      ...results,
      params: { ...results.params, threads: [8], workloads: ['oltp_point_select'], rounds: 3 },
      runs: [
        run('shaledb', 1, 6000, cpu(22, 20)), run('shaledb', 2, 3000, cpu(30, 30)), run('shaledb', 3, 4500, cpu(25, 15)),
        run('mariadb', 1, 8000, cpu(20, 10)), run('mariadb', 2, 6000, cpu(20, 20)), run('mariadb', 3, 5000, undefined),
      ],
    };
    const out = markdownReport(withCpu);
    expect(out).toContain('| workload | shaledb µs/txn (user + system) | mariadb µs/txn (user + system) | shaledb/mariadb CPU |');
    // Shown runs: ShaleDB's median-TPS round 3 (40 µs), MariaDB's round 2 (40 µs); ratios of rounds 1 and 2:
    // 42/30 = 1.40 and 60/40 = 1.50 (round 3 has no MariaDB CPU).
    expect(out).toContain('| oltp_point_select | 40 (25 + 15) | 40 (20 + 20) | 1.45 (1.40–1.50) |');
    expect(out).not.toContain("sysbench's own CPU per transaction");
  });
  it("gives sysbench's own CPU per transaction against each server beside the servers' CPU", () => {
    const cpu = (userUs: number, systemUs: number): { userUs: number; systemUs: number } => ({ userUs, systemUs });
    const run = (server: 'shaledb' | 'mariadb', round: number, tps: number, client: { userUs: number; systemUs: number }): BenchResults['runs'][number] => ({
      server, workload: 'oltp_point_select', threads: 8, round, numbers: numbers(tps, 1), serverCpu: cpu(20, 20), clientCpu: client,
    });
    const withClient: BenchResults = {
      ...results,
      params: { ...results.params, threads: [8], workloads: ['oltp_point_select'], rounds: 2 },
      runs: [run('shaledb', 1, 6000, cpu(6, 18)), run('shaledb', 2, 3000, cpu(5, 15)), run('mariadb', 1, 8000, cpu(5, 11)), run('mariadb', 2, 6000, cpu(4, 12))],
    };
    const tables = markdownReport(withClient).split("sysbench's own CPU per transaction against each server")[1] ?? '';
    expect(tables).toContain('| workload | shaledb µs/txn (user + system) | mariadb µs/txn (user + system) | shaledb/mariadb client CPU |');
    // Shown runs: the median-TPS round, of two the lower (round 2: ShaleDB 20 µs, MariaDB 16 µs);
    // paired ratios 24/16 = 1.50 and 20/16 = 1.25.
    expect(tables).toContain('| oltp_point_select | 20 (5 + 15) | 16 (4 + 12) | 1.38 (1.25–1.50) |');
  });
  it("gives each server's own CPU during each load where recorded", () => {
    expect(md).not.toContain("Each server's CPU during each load");
    const withLoadCpu: BenchResults = {
      ...results,
      servers: [
        { ...(results.servers[0] as BenchResults['servers'][number]), bulkLoadServerCpu: [{ userS: 5.2, systemS: 2.71 }, null] },
        results.servers[1] as BenchResults['servers'][number],
      ],
    };
    const out = markdownReport(withLoadCpu);
    expect(out).toContain("Each server's CPU during each load, seconds of user + system time of all its processes, in round order:\n\n- ShaleDB (embedded): 7.91 (5.20 + 2.71) / -\n");
    // MariaDB recorded no CPU for its load: no line for it in that list.
    expect(out.split("CPU during each load, seconds")[1]?.split('\n\n')[1]).toBe('- ShaleDB (embedded): 7.91 (5.20 + 2.71) / -');
  });
  it("gives each server's memory after its runs where recorded, and nothing for older results", () => {
    expect(md).not.toContain('Server memory');
    const withMemory: BenchResults = {
      ...results,
      runs: results.runs.map((x, i) => (x.threads === 8 && x.server === 'shaledb' ? { ...x, rssMiB: [0, 180, 0, 240][i] as number, anonMiB: [0, 60, 0, 55][i] as number } : x)),
    };
    const out = markdownReport(withMemory);
    const eight = out.split('## 8 threads')[1] ?? '';
    expect(eight).toContain('Server memory (resident, all its processes, after each run): ShaleDB (embedded) 180 MiB after its first run, 240 MiB after its last, 240 MiB at most.');
    expect(eight).toMatch(/Of which anonymous \([^\n]*\): ShaleDB \(embedded\) 60 MiB after its first run, 55 MiB after its last, 60 MiB at most\./);
    expect(out.split('## 8 threads')[0]).not.toContain('Server memory');
    expect(eight).not.toContain('MariaDB 0 MiB');
  });
});

describe('svgChart', () => {
  const svg = svgChart(results);
  it('draws a panel per workload and a line per server', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/font-weight="bold">oltp_/g)?.length).toBe(2);
    // point_select: both servers have 2 points -> 2 lines; insert: ShaleDB has 1 point -> 1 line.
    expect(svg.match(/<polyline /g)?.length).toBe(3);
    expect(svg.match(/<circle /g)?.length).toBe(7);
    expect(svg).toContain('ShaleDB (embedded)');
  });
  it('rounds axes up to 1, 2, 2.5 or 5 × 10^n', () => {
    expect(niceMax(8400)).toBe(10000);
    expect(niceMax(1900)).toBe(2000);
    expect(niceMax(2100)).toBe(2500);
    expect(niceMax(0)).toBe(1);
  });
});
