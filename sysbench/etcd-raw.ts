/**
 * Raw etcd throughput over gRPC for the two requests a ShaleDB transaction is made of, at a fixed
 * concurrency, sent to the leader (found with Maintenance.Status, as ShaleDB does):
 *
 *   range  a serializable Range of one random key at a fixed revision (a snapshot read);
 *   txn    a Txn comparing 4 distinct random keys' mod_revision < read revision + 1, then putting
 *          those 4 keys (a 4-key commit). A worker's read revision is the header revision of its
 *          previous response, so concurrent commits to the same keys fail the compare: those are
 *          counted as conflicts (they are still completed requests, included in ops/s).
 *
 * The keys live under a private prefix (`etcd-raw/<random>/`), are preloaded with batched Txn
 * puts and deleted at the end.
 *
 *   npx tsx sysbench/etcd-raw.ts --endpoints 127.0.0.1:2379,127.0.0.1:2479 --concurrency 8 \
 *       --duration 10 [--keys 10000] [--value-size 100] [--json]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { EtcdConnection } from '../src/kv/etcd/connection.js';
import { describe, isCompacted } from '../src/kv/etcd/rpc-errors.js';
import { CompareResult, CompareTarget, type RequestOp } from '../src/kv/etcd/rpc-types.js';
import { drive, positiveInt, stats, type DriveOptions, type OpStats } from './lib/drive.js';
import { runIfMain } from './lib/script.js';

export type { OpStats } from './lib/drive.js';

export interface RawOptions {
  readonly endpoints: readonly string[];
  readonly concurrency: number;
  readonly durationS: number;
  readonly keys: number;
  readonly valueSize: number;
}

export interface TxnStats extends OpStats {
  readonly committed: number;
  readonly committedPerSec: number;
  readonly conflicts: number;
}

export interface RawResult {
  readonly endpoints: readonly string[];
  /** The endpoint every request went to (the leader, or the first member answering Status). */
  readonly target: string;
  readonly leaderFound: boolean;
  readonly concurrency: number;
  readonly durationS: number;
  readonly keys: number;
  readonly valueSize: number;
  readonly preloadS: number;
  readonly range: OpStats;
  readonly txn: TxnStats;
}

const PRELOAD_BATCH = 100; // below etcd's default --max-txn-ops (128)
const PRELOAD_IN_FLIGHT = 8;
const TXN_KEYS = 4;

const enc = new TextEncoder();

/** Runs the benchmark against a running etcd cluster; always deletes its keys. */
export async function runRaw(opts: RawOptions): Promise<RawResult> {
  const conn = new EtcdConnection(opts.endpoints);
  try {
    const { index, leaderFound } = await findLeader(conn);
    conn.prefer(index);
    const prefix = `etcd-raw/${randomBytes(6).toString('hex')}/`;
    const width = String(opts.keys - 1).length;
    const keys = Array.from({ length: opts.keys }, (_, i) => enc.encode(prefix + String(i).padStart(width, '0')));
    const value = randomBytes(opts.valueSize);
    try {
      const t0 = performance.now();
      let loadedRev = await preload(conn, keys, value);
      const preloadS = (performance.now() - t0) / 1000;
      const range = await runRange(conn, keys, opts, () => loadedRev, (rev) => (loadedRev = rev));
      const txn = await runTxn(conn, keys, value, opts, loadedRev);
      return {
        endpoints: opts.endpoints,
        target: opts.endpoints[index] ?? '',
        leaderFound,
        concurrency: opts.concurrency,
        durationS: opts.durationS,
        keys: opts.keys,
        valueSize: opts.valueSize,
        preloadS,
        range,
        txn,
      };
    } finally {
      const start = enc.encode(prefix);
      const end = enc.encode(prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1));
      await conn.call('DeleteRange', { key: start, range_end: end }, { retry: 'idempotent' });
    }
  } finally {
    conn.close();
  }
}

/** The index of the leader (the member whose own id is the leader it reports). */
async function findLeader(conn: EtcdConnection): Promise<{ index: number; leaderFound: boolean }> {
  const statuses = await Promise.all(conn.endpoints.map((_, i) => conn.callMember(i, 'Status', {}).catch(() => undefined)));
  const leader = statuses.findIndex((s) => s !== undefined && s.leader !== '0' && s.leader === s.header.member_id);
  if (leader >= 0) return { index: leader, leaderFound: true };
  const first = statuses.findIndex((s) => s !== undefined);
  if (first < 0) throw new Error(`no etcd member answered Status: ${conn.endpoints.join(',')}`);
  return { index: first, leaderFound: false };
}

/** Puts every key in Txns of PRELOAD_BATCH puts; returns the revision after the last one. */
async function preload(conn: EtcdConnection, keys: readonly Uint8Array[], value: Uint8Array): Promise<number> {
  let next = 0;
  let rev = 0;
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const batch = keys.slice(next, next + PRELOAD_BATCH);
      next += batch.length;
      const success: RequestOp[] = batch.map((key) => ({ request_put: { key, value } }));
      const res = await conn.call('Txn', { success }, { retry: 'once' });
      rev = Math.max(rev, Number(res.header.revision));
    }
  };
  await Promise.all(Array.from({ length: PRELOAD_IN_FLIGHT }, worker));
  return rev;
}

function driveOpts(opts: RawOptions): DriveOptions {
  return { concurrency: opts.concurrency, durationS: opts.durationS, label: 'etcd-raw', describe };
}

async function runRange(
  conn: EtcdConnection,
  keys: readonly Uint8Array[],
  opts: RawOptions,
  readRev: () => number,
  setRev: (rev: number) => void,
): Promise<OpStats> {
  const r = await drive(driveOpts(opts), async () => {
    const key = keys[Math.floor(Math.random() * keys.length)] as Uint8Array;
    try {
      await conn.call('Range', { key, revision: readRev(), serializable: true }, { retry: 'idempotent' });
    } catch (err) {
      // Another client (e.g. ShaleDB's GC) compacted past the snapshot: move it to the head.
      if (!isCompacted(err)) throw err;
      const head = await conn.call('Range', { key }, { retry: 'idempotent' });
      setRev(Number(head.header.revision));
      throw err;
    }
  });
  return stats(r);
}

async function runTxn(conn: EtcdConnection, keys: readonly Uint8Array[], value: Uint8Array, opts: RawOptions, loadedRev: number): Promise<TxnStats> {
  const seen = new Array<number>(opts.concurrency).fill(loadedRev);
  let committed = 0;
  let conflicts = 0;
  const r = await drive(driveOpts(opts), async (worker) => {
    const picked = new Set<number>();
    while (picked.size < TXN_KEYS) picked.add(Math.floor(Math.random() * keys.length));
    const chosen = [...picked].map((i) => keys[i] as Uint8Array);
    const bound = (seen[worker] ?? loadedRev) + 1;
    const res = await conn.call(
      'Txn',
      {
        compare: chosen.map((key) => ({ result: CompareResult.LESS, target: CompareTarget.MOD, key, mod_revision: bound })),
        success: chosen.map((key) => ({ request_put: { key, value } })),
      },
      { retry: 'once' },
    );
    seen[worker] = Number(res.header.revision);
    if (res.succeeded) committed++;
    else conflicts++;
  });
  const s = stats(r);
  return { ...s, committed, committedPerSec: committed / r.secs, conflicts };
}

function table(res: RawResult): string {
  const row = (name: string, s: OpStats, extra: string): string =>
    `| ${name} | ${s.opsPerSec.toFixed(1)} | ${s.p50Ms.toFixed(2)} | ${s.p99Ms.toFixed(2)} | ${s.errors} | ${extra} |`;
  return [
    `etcd raw: ${res.endpoints.length} member(s), requests to ${res.target}${res.leaderFound ? ' (leader)' : ' (no leader found)'}, ` +
      `concurrency ${res.concurrency}, ${res.durationS} s per op, ${res.keys} keys x ${res.valueSize} B (preload ${res.preloadS.toFixed(1)} s)`,
    '',
    '| op | ops/s | p50 ms | p99 ms | errors | notes |',
    '|---|---|---|---|---|---|',
    row('Range 1 key @rev, serializable', res.range, ''),
    row(`Txn ${TXN_KEYS}x cmp mod_rev + ${TXN_KEYS}x put`, res.txn, `${res.txn.committedPerSec.toFixed(1)} commits/s, ${res.txn.conflicts} conflicts`),
  ].join('\n');
}

export async function main(argv: readonly string[]): Promise<RawResult> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      endpoints: { type: 'string' },
      concurrency: { type: 'string' },
      duration: { type: 'string' },
      keys: { type: 'string' },
      'value-size': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const endpoints = (values.endpoints ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (endpoints.length === 0) throw new Error('--endpoints host:port[,host:port...] is required');
  const keys = positiveInt('keys', values.keys, 10_000);
  if (keys < TXN_KEYS) throw new Error(`--keys must be at least ${TXN_KEYS}`);
  const res = await runRaw({
    endpoints,
    concurrency: positiveInt('concurrency', values.concurrency, 8),
    durationS: positiveInt('duration', values.duration, 10),
    keys,
    valueSize: positiveInt('value-size', values['value-size'], 100),
  });
  process.stdout.write(values.json ? `${JSON.stringify(res, null, 2)}\n` : `${table(res)}\n`);
  return res;
}

runIfMain(import.meta.url, 'etcd-raw', main);
