/**
 * What a durable commit of the embedded store costs on this machine, below SQL: the numbers
 * that bound ShaleDB's single-statement write throughput (ARCHITECTURE.md, "What bounds write
 * throughput").
 *
 *   commit  `concurrency` loops, each: open a snapshot, read one random key, commit a new value
 *           for it (EmbeddedStore.commit: conflict check + write in LMDB, resolved after the
 *           fsync). Conflicts (two loops picking the same key) are counted, not failures.
 *   fsync   the disk alone: write N random 4 KiB pages of a 64 MiB file, then fdatasync; the
 *           time per round for N = 0 (a 2 KiB append: what a redo log pays per group), 8 and 25
 *           (about what one LMDB batch of 8 single-row updates on a 400k-row tree dirties).
 *
 * The store lives in a temporary directory (or --data-dir, which must not exist yet) that is
 * deleted at the end.
 *
 *   npx tsx sysbench/embedded-commit.ts [--keys 400000] [--value-size 190] \
 *       [--concurrency 1,8,32] [--duration 5] [--data-dir DIR] [--json]
 */
import { closeSync, existsSync, fdatasyncSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedStore } from '../src/kv/embedded/index.js';
import { SqlError } from '../src/errors/index.js';
import { drive, positiveInt, stats, type OpStats } from './lib/drive.js';
import { runIfMain } from './lib/script.js';

export interface CommitOptions {
  readonly keys: number;
  readonly valueSize: number;
  readonly concurrency: readonly number[];
  readonly durationS: number;
  readonly dataDir?: string;
}

export interface CommitRun extends OpStats {
  readonly concurrency: number;
  readonly committed: number;
  readonly committedPerSec: number;
  readonly conflicts: number;
}

export interface FsyncRound {
  /** Random 4 KiB pages written before each fdatasync (0: a 2 KiB append instead). */
  readonly pages: number;
  readonly msPerSync: number;
}

export interface CommitResult {
  readonly keys: number;
  readonly valueSize: number;
  readonly durationS: number;
  readonly preloadS: number;
  readonly runs: readonly CommitRun[];
  readonly fsync: readonly FsyncRound[];
}

const PRELOAD_BATCH = 2000;
const FSYNC_ROUNDS = 200;
const PROBE_BYTES = 64 << 20;
const PAGE = 4096;

/** Runs the benchmark; always removes the store's directory. */
export async function runCommitBench(opts: CommitOptions): Promise<CommitResult> {
  if (opts.dataDir !== undefined && existsSync(opts.dataDir)) throw new Error(`--data-dir ${opts.dataDir} exists; give a new path`);
  const dir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'shale-commit-bench-'));
  const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
  try {
    const keys = Array.from({ length: opts.keys }, (_, i) => keyOf(i));
    const value = new Uint8Array(opts.valueSize).fill(0x61);
    const t0 = performance.now();
    await preload(store, keys, value);
    const preloadS = (performance.now() - t0) / 1000;
    const runs: CommitRun[] = [];
    for (const c of opts.concurrency) runs.push(await runCommits(store, keys, value, c, opts.durationS));
    await store.close();
    return { keys: opts.keys, valueSize: opts.valueSize, durationS: opts.durationS, preloadS, runs, fsync: probeFsync(dir) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Keys shaped like ShaleDB record keys: a table prefix and an 8-byte big-endian handle. */
function keyOf(i: number): Uint8Array {
  const key = new Uint8Array(19);
  key.set([0x74, 0, 0, 0, 0, 0, 0, 0, 1, 0x5f, 0x72], 0);
  new DataView(key.buffer).setBigUint64(11, BigInt(i));
  return key;
}

async function preload(store: EmbeddedStore, keys: readonly Uint8Array[], value: Uint8Array): Promise<void> {
  for (let i = 0; i < keys.length; i += PRELOAD_BATCH) {
    const mutations = keys.slice(i, i + PRELOAD_BATCH).map((key) => ({ op: 'put' as const, key, value }));
    await store.commit({ startTs: store.latestCommitTs(), mutations, checkKeys: [] });
  }
}

async function runCommits(store: EmbeddedStore, keys: readonly Uint8Array[], value: Uint8Array, concurrency: number, durationS: number): Promise<CommitRun> {
  let committed = 0;
  let conflicts = 0;
  const r = await drive({ concurrency, durationS, label: 'embedded-commit' }, async () => {
    const key = keys[Math.floor(Math.random() * keys.length)] as Uint8Array;
    const snap = await store.snapshot();
    try {
      await snap.get(key);
    } finally {
      snap.release();
    }
    try {
      await store.commit({ startTs: snap.startTs, mutations: [{ op: 'put', key, value }], checkKeys: [] });
      committed++;
    } catch (err) {
      if (!(err instanceof SqlError && err.errno === 1213)) throw err;
      conflicts++;
    }
  });
  return { ...stats(r), concurrency, committed, committedPerSec: committed / r.secs, conflicts };
}

/** fdatasync cost on the store's file system with 0, 8 and 25 random page writes per round. */
function probeFsync(dir: string): FsyncRound[] {
  const file = join(dir, 'fsync-probe');
  const fd = openSync(file, 'w+');
  try {
    ftruncateSync(fd, PROBE_BYTES);
    fdatasyncSync(fd);
    const page = Buffer.alloc(PAGE, 1);
    const append = Buffer.alloc(2048, 2);
    return [0, 8, 25].map((pages) => {
      const t0 = performance.now();
      for (let i = 0; i < FSYNC_ROUNDS; i++) {
        if (pages === 0) writeSync(fd, append, 0, append.length, PROBE_BYTES + i * append.length);
        for (let p = 0; p < pages; p++) writeSync(fd, page, 0, PAGE, Math.floor(Math.random() * (PROBE_BYTES / PAGE)) * PAGE);
        fdatasyncSync(fd);
      }
      return { pages, msPerSync: (performance.now() - t0) / FSYNC_ROUNDS };
    });
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

function table(res: CommitResult): string {
  const rows = res.runs.map(
    (r) =>
      `| ${r.concurrency} | ${r.committedPerSec.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.conflicts} | ${r.errors} |`,
  );
  const fsync = res.fsync.map((f) => `| ${f.pages === 0 ? '2 KiB append' : `${f.pages} random 4 KiB pages`} | ${f.msPerSync.toFixed(3)} |`);
  return [
    `embedded store: ${res.keys} keys x ${res.valueSize} B (preload ${res.preloadS.toFixed(1)} s), ${res.durationS} s per run, one process`,
    '',
    '| concurrency | commits/s | p50 ms | p99 ms | conflicts | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    '| written before one fdatasync | ms per round |',
    '|---|---|',
    ...fsync,
  ].join('\n');
}

export async function main(argv: readonly string[]): Promise<CommitResult> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      keys: { type: 'string' },
      'value-size': { type: 'string' },
      concurrency: { type: 'string' },
      duration: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const concurrency = (values.concurrency ?? '1,8,32').split(',').map((s) => positiveInt('concurrency', s.trim(), 1));
  const res = await runCommitBench({
    keys: positiveInt('keys', values.keys, 400_000),
    valueSize: positiveInt('value-size', values['value-size'], 190),
    concurrency,
    durationS: positiveInt('duration', values.duration, 5),
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
  });
  process.stdout.write(values.json ? `${JSON.stringify(res, null, 2)}\n` : `${table(res)}\n`);
  return res;
}

runIfMain(import.meta.url, 'embedded-commit', main);
