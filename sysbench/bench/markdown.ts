/**
 * The markdown report: one table per thread count with each server's TPS, QPS, latency and
 * ignored errors, and the ratio of every ShaleDB server to MariaDB (TPS: higher is better; p99:
 * ShaleDB / MariaDB, lower is better, the target is ≤ 2); then the bulk-load times. Where the
 * runs recorded the servers' CPU (process-cpu.ts), a table gives it per transaction; where the
 * runs and loads recorded the machine's CPU (cpu-sample.ts), a line under each table gives its steal;
 * where they recorded the servers' memory (process-memory.ts), a line gives how it moved.
 */
import type { CpuShare } from './cpu-sample.js';
import type { CpuPerTxn } from './process-cpu.js';
import { bulkRatio, bulkRuns, cpuTotalUs, findRun, findRunResult, median, pairedRatio, pairedRunRatio, type BenchResults, type RunResult, type ServerInfo } from './results.js';
import type { RunOrder } from './schedule.js';

const fmt = (n: number | undefined, digits = 1): string => (n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits));
const ms = (n: number | undefined): string => fmt(n, 2);

function orderText(order: RunOrder): string {
  return order === 'interleaved' ? 'each workload run on every server back to back' : 'one server after the other';
}

function roundsText(rounds: number): string[] {
  if (rounds === 1) return [];
  return [
    `Each measurement ran ${rounds} times: a server's numbers are its run with the median TPS, a ratio is the median of the ` +
      'ratios of the two runs of each round, with their range in brackets.',
    '',
  ];
}

function header(r: BenchResults): string[] {
  const p = r.params;
  return [
    `# sysbench: ShaleDB vs MariaDB (${r.startedAt})`,
    '',
    `sysbench ${r.machine.sysbench}, ${p.tables} tables × ${p.tableSize} rows, ${p.seconds} s per run, threads ${p.threads.join(', ')}, ` +
      `${orderText(p.order ?? 'sequential')}; ` +
      `${r.machine.cores} cores, Node ${r.machine.node}, ShaleDB commit ${r.machine.commit}.`,
    '',
    ...r.servers.map((s) => `- ${s.label}: ${s.version}`),
    '',
    'Ratios are ShaleDB / MariaDB from the same run (absolute numbers on a shared machine are noisy). ' +
      'TPS ratio ≥ 1.00 means ShaleDB is as fast or faster; p99 ratio ≤ 2.00 is the latency target.',
    '',
    ...roundsText(p.rounds ?? 1),
  ];
}

function threadTable(r: BenchResults, threads: number, shales: readonly ServerInfo[]): string[] {
  const cols = ['workload', ...r.servers.flatMap((s) => [`${s.name} TPS`, `${s.name} QPS`, `${s.name} avg/p95/p99 ms`, `${s.name} ign/s`])];
  for (const s of shales) cols.push(`${s.name}/mariadb TPS`, `${s.name}/mariadb p99`);
  const lines = [`## ${threads} thread${threads === 1 ? '' : 's'}`, '', `| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`];
  for (const w of r.params.workloads) {
    const cells = [w];
    for (const s of r.servers) {
      const n = findRun(r, s.name, w, threads);
      cells.push(fmt(n?.tps), fmt(n?.qps), n === null ? '-' : `${ms(n.avgMs)} / ${ms(n.p95Ms)} / ${ms(n.p99Ms)}`, fmt(n?.ignoredPerSec, 2));
    }
    for (const s of shales) cells.push(pairedRatio(r, s.name, 'mariadb', w, threads, 'tps'), pairedRatio(r, s.name, 'mariadb', w, threads, 'p99Ms'));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return [...lines, '', ...cpuTables(r, threads, shales), ...runCpuLines(r, threads), ...runMemoryLines(r, threads)];
}

/** Which CPU a table shows: the server's processes or sysbench's. */
interface CpuColumn {
  readonly title: string;
  readonly ratio: string;
  readonly pick: (x: RunResult) => CpuPerTxn | undefined;
}

/**
 * Each server's CPU per transaction in the run shown above (user + system time of all its
 * processes), and the ratio to MariaDB's paired by round: where a TPS gap is CPU spent, and
 * where it is time waited. Then sysbench's own CPU per transaction against each server: the
 * client shares the machine's cores, so what it spends per transaction is not the server's.
 * Omitted for results that did not record them.
 */
function cpuTables(r: BenchResults, threads: number, shales: readonly ServerInfo[]): string[] {
  return [
    ...cpuTable(r, threads, shales, { title: "Server CPU per transaction (all of the server's processes, from /proc; the run shown above):", ratio: 'CPU', pick: (x) => x.serverCpu }),
    ...cpuTable(r, threads, shales, { title: "sysbench's own CPU per transaction against each server (the client shares the cores; same runs):", ratio: 'client CPU', pick: (x) => x.clientCpu }),
  ];
}

function cpuTable(r: BenchResults, threads: number, shales: readonly ServerInfo[], col: CpuColumn): string[] {
  if (!r.runs.some((x) => x.threads === threads && col.pick(x) !== undefined)) return [];
  const cols = ['workload', ...r.servers.map((s) => `${s.name} µs/txn (user + system)`), ...shales.map((s) => `${s.name}/mariadb ${col.ratio}`)];
  const lines = [col.title, '', `| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`];
  const total = (x: RunResult): number | undefined => cpuTotalUs(col.pick(x));
  for (const w of r.params.workloads) {
    const cells = [w];
    for (const s of r.servers) {
      const run = findRunResult(r, s.name, w, threads);
      const c = run === undefined ? undefined : col.pick(run);
      cells.push(c === undefined ? '-' : `${cpuTotalUs(c)} (${c.userUs} + ${c.systemUs})`);
    }
    for (const s of shales) cells.push(pairedRunRatio(r, s.name, 'mariadb', w, threads, total));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return [...lines, ''];
}

/** Each server's memory after its runs of the table, in run order, where recorded: resident, then anonymous. */
function runMemoryLines(r: BenchResults, threads: number): string[] {
  const line = (title: string, field: 'rssMiB' | 'anonMiB'): string[] => {
    const rows = r.servers.flatMap((s) => {
      const mib = r.runs.filter((x) => x.server === s.name && x.threads === threads).flatMap((x) => (x[field] === undefined ? [] : [x[field]]));
      if (mib.length === 0) return [];
      return [`${s.label} ${mib[0]} MiB after its first run, ${mib[mib.length - 1]} MiB after its last, ${Math.max(...mib)} MiB at most`];
    });
    return rows.length === 0 ? [] : [`${title}: ${rows.join('; ')}.`, ''];
  };
  return [
    ...line('Server memory (resident, all its processes, after each run)', 'rssMiB'),
    ...line("Of which anonymous (heaps and buffers; the rest is mapped files, such as each ShaleDB worker's view of LMDB's data file)", 'anonMiB'),
  ];
}

/** A line on the CPU steal of the table's runs, where they recorded it. */
function runCpuLines(r: BenchResults, threads: number): string[] {
  const runs = r.runs.filter((x): x is RunResult & { cpu: CpuShare } => x.threads === threads && x.cpu !== undefined);
  if (runs.length === 0) return [];
  const worst = runs.reduce((a, b) => (b.cpu.stealPct > a.cpu.stealPct ? b : a));
  const high = runs.filter((x) => x.cpu.stealPct >= 10).length;
  return [
    `Machine CPU during these runs (/proc/stat): steal median ${fmt(median(runs.map((x) => x.cpu.stealPct)))} %, ` +
      `max ${fmt(worst.cpu.stealPct)} % (${worst.server} ${worst.workload}${worst.round === undefined ? '' : `, round ${worst.round}`}), ` +
      `${high} of ${runs.length} runs at 10 % or more; idle median ${fmt(median(runs.map((x) => x.cpu.idlePct)))} %. ` +
      'Steal is time the hypervisor gave this machine\'s vCPUs to other guests: a run with much of it understates its server.',
    '',
  ];
}

function bulkTable(r: BenchResults): string[] {
  const maria = r.servers.find((s) => s.name === 'mariadb');
  const rounds = Math.max(1, ...r.servers.map((s) => bulkRuns(s).length));
  const lines = ['## Bulk load (`sysbench oltp_common prepare`, one thread per table)', ''];
  if (rounds > 1) {
    lines.push(`Loaded ${rounds} times, the servers taking turns: seconds are the median (range), the ratio the median of each round's ratio (range).`, '');
  }
  lines.push('| server | seconds | / MariaDB |', '|---|---|---|');
  for (const s of r.servers) lines.push(`| ${s.label} | ${secondsText(s)} | ${maria === undefined ? '-' : bulkRatio(s, maria)} |`);
  return [...lines, '', ...bulkServerCpuLines(r), ...bulkCpuLines(r)];
}

/** Each server's own CPU during each load (user + system seconds, all its processes), where recorded. */
function bulkServerCpuLines(r: BenchResults): string[] {
  const rows = r.servers.flatMap((s) => {
    const cpu = s.bulkLoadServerCpu ?? [];
    if (!cpu.some((c) => c !== null)) return [];
    const text = cpu.map((c) => (c === null ? '-' : `${fmt(c.userS + c.systemS, 2)} (${fmt(c.userS, 2)} + ${fmt(c.systemS, 2)})`));
    return [`- ${s.label}: ${text.join(' / ')}`];
  });
  return rows.length === 0 ? [] : ["Each server's CPU during each load, seconds of user + system time of all its processes, in round order:", '', ...rows, ''];
}

/** The CPU steal during each server's loads, where recorded. */
function bulkCpuLines(r: BenchResults): string[] {
  const rows = r.servers.flatMap((s) => {
    const cpu = s.bulkLoadCpu ?? [];
    if (!cpu.some((c) => c !== null)) return [];
    return [`- ${s.label}: ${cpu.map((c) => (c === null ? '-' : fmt(c.stealPct))).join(' / ')} %`];
  });
  return rows.length === 0 ? [] : ['Machine CPU steal during each load, in round order:', '', ...rows, ''];
}

function secondsText(s: ServerInfo): string {
  const runs = bulkRuns(s);
  if (runs.length <= 1) return fmt(s.bulkLoadSeconds ?? undefined, 2);
  return `${fmt(s.bulkLoadSeconds ?? undefined, 2)} (${fmt(Math.min(...runs), 2)}–${fmt(Math.max(...runs), 2)})`;
}

function failures(r: BenchResults): string[] {
  const failed = r.runs.filter((x) => x.error !== undefined);
  if (failed.length === 0) return [];
  return ['## Failed runs', '', ...failed.map((x) => `- ${x.server} ${x.workload} ${x.threads} threads: ${x.error ?? ''}`), ''];
}

export function markdownReport(r: BenchResults): string {
  const shales = r.servers.filter((s) => s.name !== 'mariadb');
  const hasMaria = r.servers.some((s) => s.name === 'mariadb');
  return [
    ...header(r),
    ...r.params.threads.flatMap((t) => threadTable(r, t, hasMaria ? shales : [])),
    ...bulkTable(r),
    ...failures(r),
  ].join('\n');
}
