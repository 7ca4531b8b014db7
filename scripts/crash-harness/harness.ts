/**
 * The crash harness loop: one ShaleDB server process (bin/shale.js, built dist/) on a data
 * directory (or an etcd prefix), writer clients committing transactions, the server SIGKILLed at
 * a random moment and restarted on the same data, N times. Every third cycle also runs CREATE
 * INDEX on `big` and kills the server part-way through its backfill. After every restart the
 * data is verified (verify.ts, index-build.ts); violations are collected, not thrown.
 */
import { removeDir, spawnNode, tempDir, type SpawnedNode } from '../../test/helpers/node.js';
import { BIG_INDEX, createBigIndex, createBigTable, probeIndexState, verifyBigIndex, type DdlOutcome, type IndexState } from './index-build.js';
import { Ledger } from './ledger.js';
import { Rng, sleep } from './random.js';
import { adminCheck, verifyData } from './verify.js';
import { CHECKED_TABLES, connect, createSchema, runBigUpdater, runWriter, type StopFlag } from './workload.js';

export interface HarnessOptions {
  readonly cycles: number;
  readonly clients: number;
  /** `lmdb` (a fresh data directory) or an `etcd://…/prefix` URL. */
  readonly store: string;
  /** Rows of `big` (the CREATE INDEX table). */
  readonly bigRows: number;
  /** Load-only cycles run this long before the kill (uniform). */
  readonly runMs: readonly [number, number];
  /** Every Nth cycle kills mid-CREATE INDEX (0 = never). */
  readonly ddlEvery: number;
  readonly seed: number;
  readonly log: (line: string) => void;
  /**
   * Embedded store only: restart as after a reboot (a new SHALE_BOOT_ID each time), so the
   * server restores the last checkpoint and replays the redo log (src/kv/embedded/recovery.ts).
   */
  readonly reboot?: boolean;
}

export interface CycleResult {
  readonly cycle: number;
  readonly kind: 'load' | 'ddl';
  readonly ranMs: number;
  readonly acked: number;
  readonly unknown: number;
  readonly resolved: { committed: number; aborted: number };
  readonly aborted: number;
  /** DDL cycles: the index state found in the store after the kill, and how CREATE INDEX ended. */
  readonly index?: { readonly state: IndexState; readonly outcome: DdlOutcome['kind'] };
  readonly violations: readonly string[];
}

export interface HarnessReport {
  readonly cycles: readonly CycleResult[];
  readonly acked: number;
  readonly backfillMs: number;
  readonly violations: number;
  /** Restarts at which the server logged that it recovered the store after a (simulated) reboot. */
  readonly recoveries: number;
}

export async function runCrashHarness(o: HarnessOptions): Promise<HarnessReport> {
  const rng = new Rng(o.seed);
  const dataDir = tempDir('crash-harness');
  const storeUrl = o.store === 'lmdb' ? `lmdb://${dataDir}` : o.store;
  const args = o.store === 'lmdb' ? [] : ['--store', o.store];
  const ledger = new Ledger();
  const counters = Math.max(2, o.clients * 2);
  // With `reboot`, every start is a new boot of the machine as far as the store can tell.
  const bootEnv = (n: number): Record<string, string> => (o.reboot === true ? { SHALE_BOOT_ID: `crash-harness-${o.seed}-boot-${n}` } : {});
  let node: SpawnedNode | undefined = await spawnNode(dataDir, args, bootEnv(0));
  try {
    await createSchema(node.port, counters);
    const setup = await connect(node.port);
    await createBigTable(setup, o.bigRows);
    await setup.end();
    const backfillMs = await measureBackfill(node.port, o, ledger, rng, counters);
    o.log(`setup: ${o.bigRows} rows in big; CREATE INDEX ${BIG_INDEX} under load took ${Math.round(backfillMs)} ms`);
    const results: CycleResult[] = [];
    let recoveries = 0;
    for (let cycle = 1; cycle <= o.cycles; cycle++) {
      const ddl = o.ddlEvery > 0 && cycle % o.ddlEvery === 0;
      const killAfter = ddl ? rng.between(0.05, 1.3) * backfillMs : rng.between(o.runMs[0], o.runMs[1]);
      const stop: StopFlag = { now: false };
      const workers = Array.from({ length: o.clients }, () => runWriter({ port: node!.port, ledger, stop, rng, counters }));
      if (ddl) workers.push(runBigUpdater(node.port, o.bigRows, stop, rng));
      const started = performance.now();
      const ddlRun = ddl ? createBigIndex(node.port) : undefined;
      await sleep(killAfter);
      await node.kill();
      node = undefined;
      stop.now = true;
      await Promise.all(workers);
      const outcome = await ddlRun;
      const ranMs = performance.now() - started;
      // The probe opens the store in this process, on the killed server's boot: recovering from the
      // "reboot" is the restarted server's job.
      const state = ddl ? await withEnv(bootEnv(cycle - 1), () => probeIndexState(storeUrl)) : undefined;
      node = await spawnNode(dataDir, args, bootEnv(cycle));
      if (node.startupLog.includes('"event":"store_recovered"')) recoveries++;
      const counts = ledger.takeCycleCounts();
      const result = await verifyCycle(node.port, ledger, o.bigRows, state, outcome);
      const r: CycleResult = {
        cycle, kind: ddl ? 'ddl' : 'load', ranMs, acked: counts.acked, unknown: counts.unknown, aborted: counts.aborted,
        resolved: result.resolved, violations: result.violations,
        ...(state !== undefined && outcome !== undefined ? { index: { state, outcome: outcome.kind } } : {}),
      };
      results.push(r);
      o.log(cycleLine(r, o.cycles));
    }
    const violations = results.reduce((n, r) => n + r.violations.length, 0);
    return { cycles: results, acked: ledger.ackedTotal, backfillMs, violations, recoveries };
  } finally {
    await node?.stop();
    removeDir(dataDir);
  }
}

/** One uninterrupted CREATE INDEX (then DROP) while the writers run: how long a backfill takes under load. */
async function measureBackfill(port: number, o: HarnessOptions, ledger: Ledger, rng: Rng, counters: number): Promise<number> {
  const stop: StopFlag = { now: false };
  const workers = Array.from({ length: o.clients }, () => runWriter({ port, ledger, stop, rng, counters }));
  const outcome = await createBigIndex(port);
  stop.now = true;
  await Promise.all(workers);
  if (outcome.kind !== 'ok') throw new Error(`CREATE INDEX during set-up failed: ${outcome.kind === 'error' ? outcome.message : 'connection lost'}`);
  const c = await connect(port);
  await c.query(`DROP INDEX ${BIG_INDEX} ON big`);
  await c.end();
  return outcome.ms;
}

async function verifyCycle(
  port: number,
  ledger: Ledger,
  bigRows: number,
  state: IndexState | undefined,
  outcome: DdlOutcome | undefined,
): Promise<{ violations: string[]; resolved: { committed: number; aborted: number } }> {
  const c = await connect(port);
  try {
    const data = await verifyData(c, ledger);
    const violations = [...data.violations, ...(await adminCheck(c, [...CHECKED_TABLES, 'big']))];
    const [big] = await c.query('SELECT COUNT(*) AS n FROM big');
    const n = Number((big as Array<{ n: string | number }>)[0]?.n);
    if (n !== bigRows) violations.push(`big has ${n} rows, want ${bigRows}`);
    if (state !== undefined && outcome !== undefined) violations.push(...(await verifyBigIndex(c, state, outcome, bigRows)));
    return { violations, resolved: data.resolved };
  } finally {
    await c.end();
  }
}

function cycleLine(r: CycleResult, total: number): string {
  const unknown = r.unknown === 0 ? '' : ` (+${r.unknown} unknown: ${r.resolved.committed} committed, ${r.resolved.aborted} not)`;
  const index = r.index === undefined ? '' : `; CREATE INDEX ${r.index.outcome}, index ${r.index.state} at the kill`;
  const verdict = r.violations.length === 0 ? 'ok' : `${r.violations.length} VIOLATION(S):\n    ${r.violations.join('\n    ')}`;
  return `cycle ${r.cycle}/${total} ${r.kind.padEnd(4)} killed after ${Math.round(r.ranMs)} ms: ${r.acked} acked${unknown}, ${r.aborted} aborted${index} -> ${verdict}`;
}

/** One-paragraph summary of a run. */
export function summary(report: HarnessReport, o: Pick<HarnessOptions, 'store' | 'clients' | 'seed'>): string {
  const cycles = report.cycles;
  const unknown = cycles.reduce((n, r) => n + r.unknown, 0);
  const found = cycles.reduce((n, r) => n + r.resolved.committed, 0);
  const ddl = cycles.filter((r) => r.index !== undefined);
  const mid = ddl.filter((r) => r.index?.state === 'writeOnly').length;
  const states = (s: IndexState): number => ddl.filter((r) => r.index?.state === s).length;
  return (
    `crash harness: ${cycles.length} kill/restart cycles on ${o.store === 'lmdb' ? 'lmdb' : 'etcd'}, ${o.clients} clients, seed ${o.seed}: ` +
    `${report.acked} transactions acknowledged, ${unknown} unknown outcomes (${found} found committed, ${unknown - found} not), ` +
    `${ddl.length} kills during CREATE INDEX (${mid} mid-backfill, ${states('absent')} before it, ${states('public')} after it); ` +
    (report.recoveries > 0 ? `${report.recoveries} restarts recovered the store as after a reboot; ` : '') +
    `${report.violations} violations -> ${report.violations === 0 ? 'PASS' : 'FAIL'}`
  );
}

/** Runs `fn` with `env` set in this process's environment, restoring it afterwards. */
async function withEnv<T>(env: Readonly<Record<string, string>>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.keys(env).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
