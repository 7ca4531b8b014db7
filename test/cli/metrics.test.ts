/** ShaleMetrics (the Prometheus EngineObserver) and the timing KV store wrapper. */
import { describe, expect, it } from 'vitest';
import { SqlError } from '../../src/errors/index.js';
import type { CommitRequest, Snapshot, Store } from '../../src/kv/index.js';
import { instrumentStore, type KvCommitResult, type KvReadOp } from '../../src/cli/instrumented-store.js';
import { ShaleMetrics, statementResult } from '../../src/cli/metrics.js';
import { sample } from '../helpers/metrics-text.js';

describe('ShaleMetrics', () => {
  it('counts statements by kind and result, with durations', async () => {
    const m = new ShaleMetrics({ processMetrics: false });
    m.statement({ kind: 'select', ms: 2 });
    m.statement({ kind: 'select', ms: 30 });
    m.statement({ kind: 'update', ms: 5, errno: 1213 });
    m.statement({ kind: 'insert', ms: 1, errno: 1062 });
    const text = await m.text();
    expect(sample(text, 'shale_statements_total{kind="select",result="ok"}')).toBe(2);
    expect(sample(text, 'shale_statements_total{kind="update",result="conflict"}')).toBe(1);
    expect(sample(text, 'shale_statements_total{kind="insert",result="error"}')).toBe(1);
    expect(sample(text, 'shale_statement_duration_seconds_count{kind="select"}')).toBe(2);
    expect(sample(text, 'shale_statement_duration_seconds_sum{kind="select"}')).toBeCloseTo(0.032, 6);
    expect(sample(text, 'shale_statement_duration_seconds_bucket{le="0.005",kind="select"}')).toBe(1);
    expect(sample(text, 'shale_statement_duration_seconds_bucket{le="+Inf",kind="select"}')).toBe(2);
  });

  it('counts transaction outcomes (all four present from the start)', async () => {
    const m = new ShaleMetrics({ processMetrics: false });
    expect(sample(await m.text(), 'shale_transactions_total{outcome="conflicted"}')).toBe(0);
    m.transaction('committed');
    m.transaction('committed');
    m.transaction('retried');
    m.transaction('rolledBack');
    const text = await m.text();
    expect(sample(text, 'shale_transactions_total{outcome="committed"}')).toBe(2);
    expect(sample(text, 'shale_transactions_total{outcome="retried"}')).toBe(1);
    expect(sample(text, 'shale_transactions_total{outcome="rolled_back"}')).toBe(1);
    expect(sample(text, 'shale_transactions_total{outcome="conflicted"}')).toBe(0);
  });

  it('reports connections, schema version, uptime and the process metrics', async () => {
    const m = new ShaleMetrics();
    m.connections(3);
    m.connections(2);
    m.schemaVersion(17n);
    const text = await m.text();
    expect(sample(text, 'shale_connections')).toBe(2);
    expect(sample(text, 'shale_schema_version')).toBe(17);
    expect(sample(text, 'shale_uptime_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(m.contentType).toContain('text/plain');
  });

  it('maps errno to the result label', () => {
    expect(statementResult(undefined)).toBe('ok');
    expect(statementResult(1213)).toBe('conflict');
    expect(statementResult(1146)).toBe('error');
  });
});

/** A store with one key whose commits fail as told. */
function fakeStore(commitError?: unknown): Store {
  const snap: Snapshot = {
    startTs: 7n,
    get: () => Promise.resolve(new Uint8Array([1])),
    batchGet: (keys) => Promise.resolve(keys.map(() => undefined)),
    scan: () => Promise.resolve([]),
    release: () => undefined,
  };
  return {
    url: 'fake://',
    snapshot: () => Promise.resolve(snap),
    commit: (_req: CommitRequest) => (commitError === undefined ? Promise.resolve(8n) : Promise.reject(commitError)),
    deleteRange: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

describe('instrumentStore', () => {
  const req: CommitRequest = { startTs: 7n, mutations: [], checkKeys: [] };

  it('times snapshot, get, batch_get, scan and commits by result, passing values through', async () => {
    const reads: KvReadOp[] = [];
    const commits: KvCommitResult[] = [];
    const timings = {
      kvRead: (op: KvReadOp, s: number) => {
        expect(s).toBeGreaterThanOrEqual(0);
        reads.push(op);
      },
      kvCommit: (r: KvCommitResult) => commits.push(r),
    };
    const store = instrumentStore(fakeStore(), timings);
    expect(store.url).toBe('fake://');
    const snap = await store.snapshot();
    expect(snap.startTs).toBe(7n);
    expect(await snap.get(new Uint8Array([0]))).toEqual(new Uint8Array([1]));
    expect(await snap.batchGet([new Uint8Array([0])])).toEqual([undefined]);
    expect(await snap.scan({ start: new Uint8Array([0]), end: new Uint8Array([1]) }, { limit: 1 })).toEqual([]);
    snap.release();
    expect(await store.commit(req)).toBe(8n);
    await expect(instrumentStore(fakeStore(SqlError.of('ER_LOCK_DEADLOCK')), timings).commit(req)).rejects.toThrow(/Deadlock/);
    await expect(instrumentStore(fakeStore(new Error('gone')), timings).commit(req)).rejects.toThrow('gone');
    expect(reads).toEqual(['snapshot', 'get', 'batch_get', 'scan']);
    expect(commits).toEqual(['ok', 'conflict', 'error']);
  });

  it('snapshotNow is timed when the inner store has it, and undefined when it does not', async () => {
    const reads: KvReadOp[] = [];
    const timings = { kvRead: (op: KvReadOp) => reads.push(op), kvCommit: () => undefined };
    expect(instrumentStore(fakeStore(), timings).snapshotNow?.()).toBeUndefined();
    expect(reads).toEqual([]);
    const inner = fakeStore();
    const snap = await inner.snapshot();
    const syncStore = instrumentStore({ ...inner, snapshotNow: () => snap }, timings);
    const now = syncStore.snapshotNow?.();
    expect(now?.startTs).toBe(7n);
    expect(await now?.get(new Uint8Array([0]))).toEqual(new Uint8Array([1]));
    expect(reads).toEqual(['snapshot', 'get']);
  });

  it('feeds the kv histograms of ShaleMetrics', async () => {
    const m = new ShaleMetrics({ processMetrics: false });
    const store = instrumentStore(fakeStore(), m);
    const snap = await store.snapshot();
    await snap.get(new Uint8Array([0]));
    await store.commit(req);
    const text = await m.text();
    expect(sample(text, 'shale_kv_read_seconds_count{op="snapshot"}')).toBe(1);
    expect(sample(text, 'shale_kv_read_seconds_count{op="get"}')).toBe(1);
    expect(sample(text, 'shale_kv_commit_seconds_count{result="ok"}')).toBe(1);
  });
});
