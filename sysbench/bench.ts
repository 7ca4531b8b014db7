/**
 * `npm run bench`: sysbench 1.0.20's OLTP workloads against ShaleDB (embedded store; optionally a
 * local cluster through HAProxy) and a private MariaDB with identical parameters on 127.0.0.1:
 * by default every server is loaded first and each workload then runs on all of them back to back
 * (`--order`, bench/schedule.ts). Writes <out>/<name>.md (tables with ShaleDB / MariaDB ratios),
 * <name>.json (every number) and <name>.svg (throughput vs threads per workload), and prints the
 * markdown. Starts and stops everything it uses; Ctrl-C stops the servers too.
 *
 *   npm run bench                                  # 4×100k rows, threads 1,8,32, 30 s per run
 *   npm run bench -- --threads 8 --time 60 --servers shaledb,cluster,mariadb
 *   npm run bench -- --smoke                       # tiny tables, 2 s runs: checks the harness
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { svgChart } from './bench/chart.js';
import { markdownReport } from './bench/markdown.js';
import { withCpuShare, type CpuShare } from './bench/cpu-sample.js';
import { cpuBetween, cpuPerTxn, processTreeCpu, reapedChildrenCpu, type CpuTime } from './bench/process-cpu.js';
import { processTreeMemory } from './bench/process-memory.js';
import { createProgress, type Progress } from './bench/progress.js';
import { parseRunReport } from './bench/report-parse.js';
import { median, type BenchParams, type BenchResults, type RunResult, type ServerInfo } from './bench/results.js';
import { mariadb, shaleCluster, shaleEmbedded, sql, type BenchServer, type ServerName } from './bench/servers.js';
import { loadGroups, RUN_ORDERS, runSchedule, type RunOrder, type RunStep } from './bench/schedule.js';
import { runWorkload, sysbench, SysbenchTimeout, WORKLOADS } from './bench/sysbench-cmd.js';

const SERVER_NAMES: readonly ServerName[] = ['shaledb', 'cluster', 'mariadb'];

interface Options {
  readonly servers: ServerName[];
  readonly threads: number[];
  readonly time: number;
  readonly tables: number;
  readonly tableSize: number;
  readonly workloads: string[];
  readonly workers: number;
  readonly out: string;
  readonly name?: string;
  readonly portBase: number;
  readonly smoke: boolean;
  readonly order: RunOrder;
  readonly repeat: number;
}

function sizeOf(o: Options): { tables: number; tableSize: number } {
  return { tables: o.tables, tableSize: o.tableSize };
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function intList(v: string): number[] {
  return v.split(',').map((x) => positiveInt(x.trim()));
}

function nameList<T extends string>(allowed: readonly T[]): (v: string) => T[] {
  return (v) =>
    v.split(',').map((x) => {
      const s = x.trim();
      if (!(allowed as readonly string[]).includes(s)) throw new InvalidArgumentError(`expected some of ${allowed.join(', ')}`);
      return s as T;
    });
}

function program(): Command {
  return new Command('bench')
    .description('Runs sysbench OLTP workloads against ShaleDB and a private MariaDB side by side and reports ratios.')
    .addOption(new Option('--servers <list>', 'servers to measure, in order').argParser(nameList(SERVER_NAMES)).default(['shaledb', 'mariadb'], 'shaledb,mariadb'))
    .addOption(new Option('--threads <list>', 'sysbench thread counts').argParser(intList).default([1, 8, 32], '1,8,32'))
    .addOption(new Option('--time <seconds>', 'length of each run').argParser(positiveInt).default(30))
    .addOption(new Option('--tables <n>', 'sysbench --tables').argParser(positiveInt).default(4))
    .addOption(new Option('--table-size <rows>', 'sysbench --table-size').argParser(positiveInt).default(100_000))
    .addOption(new Option('--workloads <list>', 'workloads to run').argParser(nameList(WORKLOADS)).default([...WORKLOADS], 'the eight oltp_* workloads'))
    .addOption(new Option('--workers <n>', 'SQL processes per ShaleDB node (shale serve --workers)').argParser(positiveInt).default(1))
    .option('--out <dir>', 'directory for the .md, .json and .svg results', 'sysbench/results')
    .option('--name <name>', 'base name of the result files (default bench-<date>-<time>)')
    .addOption(new Option('--port-base <port>', 'first of the loopback ports used (ShaleDB; MariaDB +1; cluster +10…)').argParser(positiveInt).default(4600))
    .addOption(
      new Option('--order <order>', 'interleaved: load every server, then run each workload on all of them back to back; sequential: one server after the other')
        .choices([...RUN_ORDERS])
        .default('interleaved'),
    )
    .addOption(new Option('--repeat <n>', 'run every measurement n times, the bulk load too; the report gives medians and the range of the ratios').argParser(positiveInt).default(1))
    .option('--smoke', 'tiny run that checks the harness: 1 table × 200 rows, 2 s runs, threads 1,2', false)
    .addHelpText('after', '\nNeeds sysbench, mariadb-server (mariadbd, mariadb-install-db) and mariadb-client; the cluster also needs etcd and haproxy.\nRun `npm run build` first (the harness starts bin/shale.js).');
}

/** --smoke changes the sizes the user did not set. */
function smokeOptions(o: Options, cmd: Command): Options {
  const unset = (name: string): boolean => cmd.getOptionValueSource(name) === 'default';
  return {
    ...o,
    tables: unset('tables') ? 1 : o.tables,
    tableSize: unset('tableSize') ? 200 : o.tableSize,
    time: unset('time') ? 2 : o.time,
    threads: unset('threads') ? [1, 2] : o.threads,
  };
}

function makeServer(name: ServerName, o: Options, dir: string): BenchServer {
  if (name === 'shaledb') return shaleEmbedded({ dir, port: o.portBase, workers: o.workers });
  if (name === 'mariadb') return mariadb({ dir, port: o.portBase + 1, workers: 1 });
  return shaleCluster({ dir, port: o.portBase + 10, workers: o.workers });
}

function commandOutput(cmd: string, args: readonly string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** A started server, its bulk-load times (one per round), and why its remaining runs are skipped (if so). */
interface Loaded {
  readonly server: BenchServer;
  readonly version: string;
  readonly bulkRuns: number[];
  readonly bulkCpu: Array<CpuShare | null>;
  readonly bulkServerCpu: Array<CpuTime | null>;
  hung?: string;
}

/** Starts `server`, creates sbtest and times `sysbench prepare` (the bulk load). */
async function startAndLoad(server: BenchServer, o: Options, progress: Progress): Promise<Loaded> {
  progress.step(server.name, 'starting', 5);
  await server.start();
  const version = await server.version();
  await sql(server.port, ['DROP DATABASE IF EXISTS sbtest', 'CREATE DATABASE sbtest']);
  const loaded: Loaded = { server, version, bulkRuns: [], bulkCpu: [], bulkServerCpu: [] };
  await timedLoad(loaded, o, progress, 1);
  return loaded;
}

/** Times one `sysbench prepare`; a later round first drops the tables the last one made. */
async function timedLoad(l: Loaded, o: Options, progress: Progress, round: number): Promise<void> {
  const name = l.server.name;
  if (round > 1) await sysbench(l.server.port, sizeOf(o), 'oltp_common', 'cleanup');
  progress.step(name, `prepare ${o.tables}×${o.tableSize}${o.repeat > 1 ? ` (round ${round} of ${o.repeat})` : ''}`, prepareEstimate(o));
  const pid = l.server.pid();
  const cpuBefore = processTreeCpu(pid);
  const t0 = performance.now();
  const { cpu } = await withCpuShare(() => sysbench(l.server.port, sizeOf(o), 'oltp_common', 'prepare', [`--threads=${o.tables}`]));
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = cpuBetween(cpuBefore, processTreeCpu(pid));
  l.bulkRuns.push(seconds);
  l.bulkCpu.push(cpu ?? null);
  l.bulkServerCpu.push(serverCpu ?? null);
  const cpuText = serverCpu === undefined ? '' : `, server CPU ${serverCpu.userS.toFixed(2)} + ${serverCpu.systemS.toFixed(2)} s`;
  progress.log(`${name}: prepare ${seconds.toFixed(2)} s${cpuText}${stealText(cpu)}`);
}

function infoOf(l: Loaded): ServerInfo {
  const { server, version, bulkRuns, bulkCpu, bulkServerCpu } = l;
  return { name: server.name, label: server.label, version, bulkLoadSeconds: median(bulkRuns) ?? null, bulkLoadRuns: [...bulkRuns], bulkLoadCpu: [...bulkCpu], bulkLoadServerCpu: [...bulkServerCpu] };
}

/** One measurement; a server that stopped answering would only time out again, so its later runs are skipped. */
async function runStep(l: Loaded, step: RunStep, o: Options, progress: Progress, runs: RunResult[]): Promise<void> {
  const { workload, threads, round } = step;
  if (l.hung !== undefined) {
    runs.push({ server: l.server.name, workload, threads, round, numbers: null, error: `skipped: ${l.hung}` });
    return;
  }
  const label = `${workload} ${threads} thr${o.repeat > 1 ? ` (round ${round} of ${o.repeat})` : ''}`;
  progress.step(l.server.name, label, o.time);
  const run = { ...(await oneRun(l.server, sizeOf(o), workload, threads, o.time, progress)), round };
  runs.push(run);
  if (run.timedOut === true) l.hung = `the server stopped answering in ${workload} at ${threads} threads`;
}

async function cleanupAndStop(l: Loaded, o: Options, progress: Progress): Promise<void> {
  await sysbench(l.server.port, sizeOf(o), 'oltp_common', 'cleanup').catch(() => undefined);
  progress.step(l.server.name, 'stopping', 2);
  await l.server.stop();
}

/**
 * Every measurement in `o.order` (schedule.ts): interleaved loads all servers first and runs each
 * workload on all of them back to back; sequential runs one server after the other. Servers this
 * started are stopped even when a step throws.
 */
async function measureAll(o: Options, scratch: string, progress: Progress, started: BenchServer[], runs: RunResult[]): Promise<ServerInfo[]> {
  const steps = runSchedule(o.servers.length, o.workloads, o.threads, o.order, o.repeat);
  const infos: ServerInfo[] = [];
  for (const group of loadGroups(o.servers.length, o.order)) {
    const loaded = new Map<number, Loaded>();
    const running = new Set<BenchServer>();
    try {
      for (const i of group) {
        const server = makeServer(o.servers[i] as ServerName, o, scratch);
        started.push(server);
        running.add(server);
        loaded.set(i, await startAndLoad(server, o, progress));
      }
      // --repeat loads again, the servers taking turns (who goes first rotates, as in the runs),
      // so each bulk-load ratio pairs two loads seconds apart; the runs use the last round's tables.
      const inGroup = [...loaded.values()];
      for (let round = 2; round <= o.repeat; round++) {
        for (let k = 0; k < inGroup.length; k++) await timedLoad(inGroup[(k + round - 1) % inGroup.length] as Loaded, o, progress, round);
      }
      for (const step of steps) {
        const l = loaded.get(step.server);
        if (l !== undefined) await runStep(l, step, o, progress, runs);
      }
      for (const l of loaded.values()) {
        running.delete(l.server);
        await cleanupAndStop(l, o, progress);
      }
    } finally {
      await Promise.all([...running].map((server) => server.stop()));
    }
    for (const l of loaded.values()) infos.push(infoOf(l));
  }
  return infos;
}

async function oneRun(server: BenchServer, size: { tables: number; tableSize: number }, workload: string, threads: number, seconds: number, progress: ReturnType<typeof createProgress>): Promise<RunResult> {
  try {
    const pid = server.pid();
    const cpuBefore = processTreeCpu(pid);
    const clientBefore = reapedChildrenCpu();
    const { result, cpu } = await withCpuShare(() => runWorkload(server.port, size, workload, threads, seconds));
    const numbers = parseRunReport(result);
    const serverCpu = cpuPerTxn(cpuBefore, processTreeCpu(pid), numbers.events);
    const clientCpu = cpuPerTxn(clientBefore, reapedChildrenCpu(), numbers.events);
    const mem = pid === undefined ? undefined : processTreeMemory(pid);
    const memText = mem === undefined ? '' : `, RSS ${mem.rssMiB} MiB (anonymous ${mem.anonMiB})`;
    const clientText = clientCpu === undefined ? '' : `, sysbench ${clientCpu.userUs} + ${clientCpu.systemUs}`;
    const cpuText = serverCpu === undefined ? '' : `, server CPU ${serverCpu.userUs} + ${serverCpu.systemUs} µs/txn${clientText}`;
    progress.log(`${server.name} ${workload} ${threads} thr: ${numbers.tps.toFixed(1)} tps, p99 ${numbers.p99Ms} ms, ${numbers.ignoredPerSec} ignored err/s${cpuText}${stealText(cpu)}${memText}`);
    return { server: server.name, workload, threads, numbers, ...(cpu === undefined ? {} : { cpu }), ...(serverCpu === undefined ? {} : { serverCpu }), ...(clientCpu === undefined ? {} : { clientCpu }), ...(mem ?? {}) };
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).split('\n').slice(-3).join(' ');
    progress.log(`${server.name} ${workload} ${threads} thr FAILED: ${error}`);
    return { server: server.name, workload, threads, numbers: null, error, ...(err instanceof SysbenchTimeout ? { timedOut: true } : {}) };
  }
}

function stealText(cpu: CpuShare | undefined): string {
  return cpu === undefined ? '' : `, CPU steal ${cpu.stealPct.toFixed(1)} %, idle ${cpu.idlePct.toFixed(1)} %`;
}

/** Planned seconds for a prepare: MariaDB and ShaleDB load a few tens of thousands of rows a second here. */
function prepareEstimate(o: Options): number {
  return Math.max(2, (o.tables * o.tableSize) / 40_000);
}

function stamp(d: Date): string {
  return d.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
}

async function main(): Promise<void> {
  const cmd = program().parse(process.argv);
  const raw = cmd.opts<Options>();
  const o = raw.smoke ? smokeOptions(raw, cmd) : raw;
  const startedAt = new Date();
  const params: BenchParams = { tables: o.tables, tableSize: o.tableSize, seconds: o.time, threads: o.threads, workloads: o.workloads, workers: o.workers, order: o.order, rounds: o.repeat };
  const perServer = 7 + prepareEstimate(o) * o.repeat + o.workloads.length * o.threads.length * o.time * o.repeat;
  const progress = createProgress(perServer * o.servers.length);
  const scratch = mkdtempSync(join(tmpdir(), 'shale-bench-'));
  const started: BenchServer[] = [];
  const onSignal = (): void => {
    progress.stop();
    void Promise.all(started.map((s) => s.stop())).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const runs: RunResult[] = [];
  let servers: ServerInfo[];
  try {
    servers = await measureAll(o, scratch, progress, started, runs);
  } finally {
    progress.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    machine: {
      cores: cpus().length,
      node: process.versions.node,
      sysbench: commandOutput('sysbench', ['--version']).replace(/^sysbench\s*/, ''),
      commit: commandOutput('git', ['rev-parse', '--short', 'HEAD']),
    },
    params,
    servers,
    runs,
  };
  mkdirSync(o.out, { recursive: true });
  const base = join(o.out, o.name ?? `bench-${stamp(startedAt)}`);
  const md = markdownReport(results);
  writeFileSync(`${base}.md`, `${md}\n![throughput vs threads](${base.split('/').pop() ?? 'bench'}.svg)\n`);
  writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${base}.svg`, svgChart(results));
  process.stdout.write(`${md}\nWrote ${base}.md, ${base}.json and ${base}.svg\n`);
  if (runs.some((r) => r.numbers === null)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
