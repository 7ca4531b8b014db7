/**
 * Shared machinery of the protocol fuzz suites (issue #6): one in-process node on the embedded
 * store, process-level fault traps (uncaughtException / unhandledRejection), a canary
 * connection that runs `SELECT 1` in the background the whole time, a liveness probe for fuzzed
 * connections, and the end-of-suite checks (canary healthy, new connections accepted, no
 * leaked sessions, heap back near its starting size).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type fc from 'fast-check';
import { SqlError } from '../../../src/errors/index.js';
import { removeDir, startTestNode, type TestNode } from '../../helpers/node.js';
import { comQuery } from '../../helpers/mysql-packets.js';
import { WireClient, errOf, type ReadResult } from './wire-client.js';

/** The longest a fuzzed connection may leave us waiting for an answer or a close. */
export const HANG_MS = 2000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap after a full collection (twice: the first pass only queues finalizers). */
export function settledHeap(): { heap: number; buffers: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}

/** fast-check parameters: FUZZ_SEED replays a failure, FUZZ_RUNS scales every property. */
export function fuzzParams(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env['FUZZ_SEED'];
  const scale = Number(process.env['FUZZ_RUNS_SCALE'] ?? '1');
  return {
    numRuns: Math.max(1, Math.round(numRuns * scale)),
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    // A failing case can cost a 2 s timeout per shrink step; report the first counterexample.
    endOnFailure: process.env['FUZZ_SHRINK'] !== '1',
  };
}

export class FuzzEnv {
  readonly faults: string[] = [];
  readonly canaryFailures: string[] = [];
  canaryMaxMs = 0;
  canaryRounds = 0;
  private canaryLoop: Promise<void> | null = null;
  private stopping = false;
  private baseline = { heap: 0, buffers: 0 };
  private readonly onFault = (err: unknown): void => {
    this.faults.push(err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err));
  };

  private constructor(
    readonly node: TestNode,
    readonly canary: WireClient,
  ) {}

  get port(): number {
    return this.node.port;
  }

  /** Starts the node, runs `setup` statements, logs the canary in and starts its loop. */
  static async start(setup: readonly string[] = []): Promise<FuzzEnv> {
    const node = await startTestNode('embedded');
    const admin = await WireClient.connect(node.port);
    if (!isOk(await admin.login())) throw new Error('admin login failed');
    for (const sql of setup) {
      const r = await queryPackets(admin, sql);
      if (r.error !== null) throw new Error(`setup failed: ${sql}: ${r.error}`);
    }
    admin.destroy();
    const canary = await WireClient.connect(node.port);
    if (!isOk(await canary.login())) throw new Error('canary login failed');
    const env = new FuzzEnv(node, canary);
    process.on('uncaughtException', env.onFault);
    process.on('unhandledRejection', env.onFault);
    await env.selectOne();
    env.baseline = settledHeap();
    env.canaryLoop = env.runCanary();
    return env;
  }

  /** One `SELECT 1` on the canary; throws unless the exact answer arrives within HANG_MS. */
  async selectOne(): Promise<void> {
    const started = Date.now();
    const r = await queryPackets(this.canary, 'SELECT 1');
    const ms = Date.now() - started;
    this.canaryMaxMs = Math.max(this.canaryMaxMs, ms);
    const row = r.packets[3];
    if (r.error !== null || r.closed || row === undefined || row.payload.toString('latin1') !== '\x011' || r.packets[0]?.seq !== 1) {
      throw new Error(`canary SELECT 1 failed after ${ms} ms: ${r.error ?? (r.closed ? 'closed' : 'wrong answer')}`);
    }
  }

  private async runCanary(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.selectOne();
        this.canaryRounds++;
      } catch (err) {
        this.canaryFailures.push(err instanceof Error ? err.message : String(err));
        return;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Throws if the server faulted or the canary stopped answering (call between properties). */
  assertHealthy(): void {
    if (this.faults.length > 0) throw new Error(`uncaught in the server process:\n${this.faults.join('\n')}`);
    if (this.canaryFailures.length > 0) throw new Error(this.canaryFailures.join('\n'));
  }

  /**
   * End-of-suite checks, then stops the node: no faults, the canary answered throughout (and
   * still does), a new connection logs in, every fuzz session was closed, memory is back.
   */
  async finish(heapSlackMb = 48): Promise<{ heapGrowthMb: number; buffersGrowthMb: number }> {
    try {
      this.stopping = true;
      await this.canaryLoop;
      this.assertHealthy();
      await this.selectOne();
      const fresh = await WireClient.connect(this.port);
      if (!isOk(await fresh.login())) throw new Error('a new connection could not log in after the fuzzing');
      const one = await queryPackets(fresh, 'SELECT 1');
      if (one.error !== null || one.packets[3]?.payload.toString('latin1') !== '\x011') throw new Error('new connection: SELECT 1 failed');
      fresh.destroy();
      await this.waitSessions(1);
      // Closed connections may linger up to the server's 2 s end grace: let them go first.
      const deadline = Date.now() + 5000;
      for (;;) {
        const now = settledHeap();
        const growth = {
          heapGrowthMb: (now.heap - this.baseline.heap) / 2 ** 20,
          buffersGrowthMb: (now.buffers - this.baseline.buffers) / 2 ** 20,
        };
        if (growth.heapGrowthMb <= heapSlackMb && growth.buffersGrowthMb <= heapSlackMb) return growth;
        if (Date.now() > deadline) {
          throw new Error(`memory grew by ${growth.heapGrowthMb.toFixed(1)} MiB heap / ${growth.buffersGrowthMb.toFixed(1)} MiB buffers`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      process.off('uncaughtException', this.onFault);
      process.off('unhandledRejection', this.onFault);
      this.canary.destroy();
      await this.node.stop();
      removeDir(this.node.dataDir);
    }
  }

  /** Waits until the server holds exactly `n` sessions (the fuzz connections were all closed). */
  private async waitSessions(n: number): Promise<void> {
    const deadline = Date.now() + 5000;
    let last = '';
    while (Date.now() < deadline) {
      const r = await queryPackets(this.canary, "SHOW STATUS LIKE 'Threads_connected'");
      const row = r.packets[4]?.payload;
      last = row === undefined ? String(r.error) : row.toString('latin1', 1 + (row[0] as number) + 1);
      if (last === String(n)) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`sessions still open after the fuzzing: Threads_connected = ${last}, expected ${n}`);
  }
}

export function isOk(r: ReadResult): boolean {
  return typeof r !== 'string' && r.payload[0] === 0x00;
}

export interface QueryOutcome {
  readonly packets: ReadonlyArray<Exclude<ReadResult, string>>;
  readonly error: string | null;
  readonly closed: boolean;
}

/** Sends one COM_QUERY and reads its whole text response (OK, ERR, or a result set). */
export async function queryPackets(c: WireClient, sql: string): Promise<QueryOutcome> {
  c.send(0, comQuery(sql));
  const packets: Array<Exclude<ReadResult, string>> = [];
  let eofs = 0;
  for (;;) {
    const r = await c.read(HANG_MS);
    if (r === 'closed') return { packets, error: null, closed: true };
    if (r === 'timeout') return { packets, error: 'timeout', closed: false };
    packets.push(r);
    const e = errOf(r);
    if (e !== null) return { packets, error: `${e.errno} ${e.message}`, closed: false };
    if (packets.length === 1 && r.payload[0] === 0x00) return { packets, error: null, closed: false };
    if (r.payload[0] === 0xfe && r.payload.length < 9 && ++eofs === 2) return { packets, error: null, closed: false };
  }
}

/** What a fuzzed connection did once the fuzz input was sent. */
export interface Liveness {
  readonly outcome: 'alive' | 'closed' | 'hung';
  /** ERR packets seen on the way, as `errno message`. */
  readonly errors: string[];
  readonly detail: string;
}

let markerSeq = 0;

/** Outcomes and ERR codes seen by probe(), for the suites' summary lines (coverage at a glance). */
export const seen = new Map<string, number>();

export function count(key: string): void {
  seen.set(key, (seen.get(key) ?? 0) + 1);
}

export function seenSummary(): string {
  return [...seen.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}:${n}`).join(' ');
}

/**
 * After fuzz input, proves the connection is not wedged: sends `SELECT '<marker>'` and reads
 * until the marker's row arrives (alive: its response must start at sequence id 1) or the
 * server closes. Anything else within HANG_MS is a hang.
 */
export async function probe(c: WireClient): Promise<Liveness> {
  const marker = `fz-marker-${++markerSeq}`;
  const errors: string[] = [];
  if (!c.closed) c.send(0, comQuery(`SELECT '${marker}'`));
  const deadline = Date.now() + HANG_MS;
  let last: Exclude<ReadResult, string> | null = null;
  let beforeLast: Exclude<ReadResult, string> | null = null;
  for (;;) {
    const r = await c.read(Math.max(0, deadline - Date.now()));
    if (r === 'closed') {
      count('closed');
      return { outcome: 'closed', errors, detail: '' };
    }
    if (r === 'timeout') {
      const tail = [beforeLast, last].map((p) => (p === null ? '-' : `${p.seq}:${p.payload.subarray(0, 24).toString('hex')}`));
      return { outcome: 'hung', errors, detail: `no answer or close within ${HANG_MS} ms; last packets ${tail.join(' ')}` };
    }
    const e = errOf(r);
    if (e !== null) {
      errors.push(`${e.errno} ${e.message}`);
      count(String(e.errno));
    } else if (r.seq === 1) count(r.payload[0] === 0 ? 'ok' : r.payload[0] === 0xfe ? 'eof' : 'rows');
    if (r.payload.length === marker.length + 1 && r.payload.toString('latin1', 1) === marker) {
      // The marker's row is packet 4 of its response (count, column, EOF, row): count had seq 1.
      if (r.seq !== 4) return { outcome: 'hung', errors, detail: `marker row has sequence id ${r.seq}, expected 4` };
      count('alive');
      return { outcome: 'alive', errors, detail: '' };
    }
    beforeLast = last;
    last = r;
  }
}

/** MySQL's own 1105 for long data over max_allowed_packet: the one 1105 that is not a bug. */
const LONG_DATA_1105 = `1105 ${SqlError.of('ER_LONG_DATA_TOO_LONG').message}`;

/** The 1105 errors among `errors`: an exception escaped a handler (a server bug). */
export function internalErrors(errors: readonly string[]): string[] {
  return errors.filter((e) => e.startsWith('1105 ') && e !== LONG_DATA_1105);
}
