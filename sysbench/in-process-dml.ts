/**
 * The CPU one prepared DML statement costs the engine and the embedded store, without sockets,
 * the wire protocol or sysbench on the same cores: `--sessions` sessions of an in-process engine
 * run a statement over a sysbench-shaped table (`sbtest1`: id, k, c, pad; KEY k_1 (k)) for
 * `--rounds` rounds of `--duration` seconds, and each round reports statements per second and
 * the process's CPU (user + system, all threads: lmdb-js's writer, the log's fsync) per
 * statement. ARCHITECTURE.md quotes it to compare builds, run alternately (one build, then the
 * other, and again): a few per cent of CPU per statement is below what the sysbench harness can
 * resolve on a shared machine.
 *
 * Parameters: the last `?` of the statement gets a random id in [1, rows], every earlier one a
 * 119-character string of digit groups (sysbench's `c`) drawn from a pool made before the rounds,
 * so that making parameters costs the rounds little. The table lives in a temporary directory (or
 * --data-dir, which must not exist yet) that is deleted at the end.
 *
 * The engine and store come from the build (`dist/`, what `shale serve` runs) once `npm run build`
 * made it, else from `src/` through tsx (`--code` chooses). tsx compiles with esbuild's keepNames,
 * which wraps every function expression in a call that defines its `name` property each time the
 * closure is made, and that costs a statement several µs the built server does not pay.
 *
 *   npx tsx sysbench/in-process-dml.ts [--sql 'UPDATE sbtest1 SET k=k+1 WHERE id=?'] \
 *       [--rows 100000] [--sessions 8] [--duration 5] [--rounds 3] [--data-dir DIR] \
 *       [--code dist|src] [--json]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { EmbeddedStore } from '../src/kv/embedded/index.js';
import type { ClosableEngine, createEngine, Session } from '../src/sql/session/index.js';
import type { createTxnStore } from '../src/txn/index.js';
import type { Value } from '../src/types/index.js';
import { drive, positiveInt } from './lib/drive.js';
import { runIfMain } from './lib/script.js';

/** Where the engine's code is loaded from: the build (`dist/`) or the TypeScript sources via tsx. */
export type CodeSource = 'dist' | 'src';

export interface DmlOptions {
  readonly sql: string;
  readonly code: CodeSource;
  readonly rows: number;
  readonly sessions: number;
  readonly durationS: number;
  readonly rounds: number;
  readonly dataDir?: string;
}

export interface DmlRound {
  readonly statements: number;
  readonly perSec: number;
  /** Process CPU (user + system) per statement, µs. */
  readonly cpuUs: number;
  readonly userUs: number;
  readonly systemUs: number;
  readonly errors: number;
}

export interface DmlResult {
  readonly sql: string;
  readonly code: CodeSource;
  readonly rows: number;
  readonly sessions: number;
  readonly rounds: readonly DmlRound[];
}

const LOAD_BATCH = 1000;
const DEFAULT_SQL = 'UPDATE sbtest1 SET k=k+1 WHERE id=?';

/** sysbench's `c`: 10 groups of 11 digits joined by '-' (119 characters). */
function randomC(): string {
  return Array.from({ length: 10 }, () => String(Math.floor(Math.random() * 1e11)).padStart(11, '0')).join('-');
}

/** Distinct `c` values the rounds draw from (a power of two). */
const C_POOL_SIZE = 4096;

/** What the benchmark uses of the engine, from `dist/` or `src/`. */
interface EngineCode {
  readonly EmbeddedStore: typeof EmbeddedStore;
  readonly createEngine: typeof createEngine;
  readonly createTxnStore: typeof createTxnStore;
}

const DIST_ENGINE = new URL('../dist/sql/session/index.js', import.meta.url);

/** `dist` once the build exists, else `src`. */
export function defaultCode(): CodeSource {
  return existsSync(DIST_ENGINE) ? 'dist' : 'src';
}

async function exported<T>(from: CodeSource, path: string, name: string): Promise<T> {
  const mod: unknown = await import(new URL(`../${from}/${path}`, import.meta.url).href);
  const value: unknown = typeof mod === 'object' && mod !== null ? Reflect.get(mod, name) : undefined;
  if (typeof value !== 'function') throw new Error(`${from}/${path} exports no ${name} (run npm run build?)`);
  return value as T; // the same module as the type names, built or not
}

async function loadEngineCode(from: CodeSource): Promise<EngineCode> {
  return {
    EmbeddedStore: await exported<typeof EmbeddedStore>(from, 'kv/embedded/index.js', 'EmbeddedStore'),
    createEngine: await exported<typeof createEngine>(from, 'sql/session/index.js', 'createEngine'),
    createTxnStore: await exported<typeof createTxnStore>(from, 'txn/index.js', 'createTxnStore'),
  };
}

function openSession(engine: ClosableEngine, connectionId: number): Promise<Session> {
  return engine.openSession({ connectionId, user: 'root', host: 'localhost', collationId: 255, foundRows: false });
}

async function load(s: Session, rows: number): Promise<void> {
  await s.query('CREATE DATABASE sbtest');
  await s.useDatabase('sbtest');
  await s.query('CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, KEY k_1 (k))');
  for (let start = 1; start <= rows; start += LOAD_BATCH) {
    const values: string[] = [];
    for (let id = start; id < Math.min(rows + 1, start + LOAD_BATCH); id++) values.push(`(${id}, ${Math.floor(Math.random() * rows)}, '${randomC()}', 'pad')`);
    await s.query(`INSERT INTO sbtest1 (id, k, c, pad) VALUES ${values.join(', ')}`);
  }
}

export async function runDmlBench(opts: DmlOptions): Promise<DmlResult> {
  if (opts.dataDir !== undefined && existsSync(opts.dataDir)) throw new Error(`--data-dir ${opts.dataDir} already exists`);
  const code = await loadEngineCode(opts.code);
  const dir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'shale-dml-bench-'));
  const kv = code.EmbeddedStore.open(dir);
  const engine = await code.createEngine(code.createTxnStore(kv), { logger: pino({ level: 'warn' }) });
  try {
    const loader = await openSession(engine, 1);
    await load(loader, opts.rows);
    const params = opts.sql.split('?').length - 1;
    const stmts = await Promise.all(
      Array.from({ length: opts.sessions }, async (_, i) => {
        const s = await openSession(engine, i + 2);
        await s.useDatabase('sbtest');
        return s.prepare(opts.sql);
      }),
    );
    const pool = Array.from({ length: C_POOL_SIZE }, randomC);
    let drawn = 0;
    const args = (): Value[] => {
      const values: Value[] = [];
      for (let i = 0; i < params - 1; i++) values.push(pool[drawn++ & (C_POOL_SIZE - 1)] ?? '');
      if (params > 0) values.push(BigInt(1 + Math.floor(Math.random() * opts.rows)));
      return values;
    };
    const rounds: DmlRound[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const cpu = process.cpuUsage();
      const res = await drive({ concurrency: opts.sessions, durationS: opts.durationS, label: 'in-process-dml' }, async (w) => {
        await stmts[w]?.execute(args());
      });
      const used = process.cpuUsage(cpu);
      const per = (us: number): number => (res.n === 0 ? 0 : us / res.n);
      rounds.push({ statements: res.n, perSec: res.n / res.secs, cpuUs: per(used.user + used.system), userUs: per(used.user), systemUs: per(used.system), errors: res.errors });
    }
    return { sql: opts.sql, code: opts.code, rows: opts.rows, sessions: opts.sessions, rounds };
  } finally {
    await engine.close();
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(res: DmlResult): string {
  const lines = [`${res.sql}  (${res.rows} rows, ${res.sessions} sessions, code from ${res.code}/)`, 'round  statements/s  CPU µs/statement (user + system)'];
  res.rounds.forEach((r, i) => {
    lines.push(`${String(i + 1).padStart(5)}  ${r.perSec.toFixed(0).padStart(12)}  ${r.cpuUs.toFixed(1)} (${r.userUs.toFixed(1)} + ${r.systemUs.toFixed(1)})${r.errors > 0 ? `, ${r.errors} failed` : ''}`);
  });
  return lines.join('\n');
}

export async function main(argv: readonly string[]): Promise<DmlResult> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      sql: { type: 'string' },
      rows: { type: 'string' },
      sessions: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      'data-dir': { type: 'string' },
      code: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const code = values.code ?? defaultCode();
  if (code !== 'dist' && code !== 'src') throw new Error(`--code must be dist or src, not ${code}`);
  const res = await runDmlBench({
    sql: values.sql ?? DEFAULT_SQL,
    code,
    rows: positiveInt('rows', values.rows, 100_000),
    sessions: positiveInt('sessions', values.sessions, 8),
    durationS: positiveInt('duration', values.duration, 5),
    rounds: positiveInt('rounds', values.rounds, 3),
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
  });
  process.stdout.write(values.json ? `${JSON.stringify(res, null, 2)}\n` : `${table(res)}\n`);
  return res;
}

runIfMain(import.meta.url, 'in-process-dml', main);
