/**
 * The engine reporting to ShaleMetrics (transaction outcomes, connections, schema version) and
 * the slow-query log line, on a real embedded store whose commits can be made to conflict.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentStore } from '../../src/cli/instrumented-store.js';
import { ShaleMetrics } from '../../src/cli/metrics.js';
import { SqlError } from '../../src/errors/index.js';
import { openStore, type CommitRequest, type Store } from '../../src/kv/index.js';
import { createEngine, type ClosableEngine, type Session } from '../../src/sql/session/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { sample } from '../helpers/metrics-text.js';

/** The next `failures.n` commits fail with 1213 before reaching the store. */
function conflicting(kv: Store, failures: { n: number }): Store {
  return {
    url: kv.url,
    snapshot: () => kv.snapshot(),
    commit: (req: CommitRequest) => {
      if (failures.n > 0) {
        failures.n--;
        return Promise.reject(SqlError.of('ER_LOCK_DEADLOCK'));
      }
      return kv.commit(req);
    },
    deleteRange: (r) => kv.deleteRange(r),
    close: () => kv.close(),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'shale-observer-'));
const lines: string[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
const metrics = new ShaleMetrics({ processMetrics: false });
const failures = { n: 0 };
let kv: Store;
let engine: ClosableEngine;
let nextId = 1;

function open(): Promise<Session> {
  return engine.openSession({ connectionId: nextId++, user: 'root', host: '127.0.0.1', collationId: 45, foundRows: false, database: 'obs' });
}

async function outcome(name: string): Promise<number | undefined> {
  return sample(await metrics.text(), `shale_transactions_total{outcome="${name}"}`);
}

beforeAll(async () => {
  kv = await openStore(dir);
  const store = instrumentStore(conflicting(kv, failures), metrics);
  engine = await createEngine(createTxnStore(store), { logger, observer: metrics, longQueryTime: 0 });
  const s = await engine.openSession({ connectionId: nextId++, user: 'root', host: '127.0.0.1', collationId: 45, foundRows: false });
  await s.query('CREATE DATABASE obs');
  await s.query('CREATE TABLE obs.t (id INT PRIMARY KEY, k INT, secret VARCHAR(20), KEY k_1 (k))');
  await s.query("INSERT INTO obs.t VALUES (1, 10, 'a'), (2, 20, 'b')");
  await s.close();
});

afterAll(async () => {
  await engine.close();
  await kv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('transaction outcomes', () => {
  it('committed, rolled_back, retried (autocommit) and conflicted (1213 returned)', async () => {
    const s = await open();
    const before = { c: await outcome('committed'), r: await outcome('rolled_back'), re: await outcome('retried'), x: await outcome('conflicted') };
    await s.query('UPDATE t SET k = k + 1 WHERE id = 1'); // committed
    await s.query('BEGIN');
    await s.query('UPDATE t SET k = k + 1 WHERE id = 2');
    await s.query('ROLLBACK'); // rolled_back
    failures.n = 2;
    await s.query('UPDATE t SET k = k + 1 WHERE id = 1'); // retried twice, then committed
    await s.query('BEGIN');
    await s.query('UPDATE t SET k = k + 1 WHERE id = 2');
    failures.n = 1;
    await expect(s.query('COMMIT')).rejects.toThrow(/Deadlock/); // conflicted
    expect(s.inTransaction()).toBe(false);
    await s.query('BEGIN');
    await s.query('COMMIT'); // no statement, no snapshot: nothing to count
    expect(await outcome('committed')).toBe((before.c ?? 0) + 2);
    expect(await outcome('rolled_back')).toBe((before.r ?? 0) + 1);
    expect(await outcome('retried')).toBe((before.re ?? 0) + 2);
    expect(await outcome('conflicted')).toBe((before.x ?? 0) + 1);
    const text = await metrics.text();
    expect(sample(text, 'shale_statements_total{kind="commit",result="conflict"}')).toBe(1);
    expect(sample(text, 'shale_kv_commit_seconds_count{result="ok"}')).toBeGreaterThanOrEqual(2);
    await s.close();
  });

  it('an autocommit statement that keeps conflicting is conflicted once, after its retries', async () => {
    const s = await open();
    const before = { re: (await outcome('retried')) ?? 0, x: (await outcome('conflicted')) ?? 0 };
    failures.n = 100;
    await expect(s.query('UPDATE t SET k = 0 WHERE id = 1')).rejects.toThrow(/Deadlock/);
    failures.n = 0;
    expect(await outcome('retried')).toBe(before.re + 10);
    expect(await outcome('conflicted')).toBe(before.x + 1);
    await s.close();
  });

  it('an open transaction left by a closing session counts as rolled back', async () => {
    const s = await open();
    const before = (await outcome('rolled_back')) ?? 0;
    await s.query('BEGIN');
    await s.query('SELECT * FROM t WHERE id = 1');
    await s.close();
    expect(await outcome('rolled_back')).toBe(before + 1);
  });
});

describe('connections and schema version', () => {
  it('follows open sessions and the newest schema', async () => {
    const a = await open();
    const b = await open();
    await a.query('SELECT 1 FROM t LIMIT 1');
    expect(sample(await metrics.text(), 'shale_connections')).toBe(2);
    expect(sample(await metrics.text(), 'shale_schema_version')).toBeGreaterThan(0);
    const v = sample(await metrics.text(), 'shale_schema_version') ?? 0;
    await a.query('CREATE TABLE t2 (id INT PRIMARY KEY)');
    await a.query('SELECT * FROM t2');
    expect(sample(await metrics.text(), 'shale_schema_version')).toBeGreaterThan(v);
    await a.close();
    await b.close();
    expect(sample(await metrics.text(), 'shale_connections')).toBe(0);
  });
});

describe('slow-query log', () => {
  function slowLines(): Array<Record<string, unknown>> {
    return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['event'] === 'slow-query');
  }

  it('logs digest, normalized text, rows and plan, never the literals', async () => {
    const s = await open();
    lines.length = 0;
    await s.query("SELECT secret FROM t WHERE k BETWEEN 10 AND 30 AND secret <> 'hunter2' ORDER BY id LIMIT 5");
    await s.query("UPDATE t SET secret = 'hunter3' WHERE id IN (1, 2)");
    const [select, update] = slowLines();
    expect(select).toMatchObject({
      level: 40,
      conn: expect.any(Number),
      user: 'root',
      db: 'obs',
      kind: 'select',
      query: 'SELECT secret FROM t WHERE k BETWEEN ? AND ? AND secret <> ? ORDER BY id LIMIT ?',
      rowsSent: 2,
      rowsAffected: 0,
      plan: 'TopN(Selection(IndexLookUp(t.k_1)))',
      msg: 'slow query',
    });
    expect(select!['digest']).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof select!['ms']).toBe('number');
    expect(update).toMatchObject({ kind: 'update', query: 'UPDATE t SET secret = ? WHERE id IN (...)', rowsAffected: 2, plan: 'Update(BatchPointGet(t))' });
    expect(lines.join('\n')).not.toMatch(/hunter/);
    await s.close();
  });

  it('the same statement with other values has the same digest; failures carry the errno', async () => {
    const s = await open();
    lines.length = 0;
    await s.query('SELECT * FROM t WHERE id = 1');
    await s.query('SELECT  *  FROM t WHERE id = 2');
    await expect(s.query("INSERT INTO t VALUES (1, 1, 'dup')")).rejects.toThrow(/Duplicate/);
    const [a, b, dup] = slowLines();
    expect(a!['digest']).toBe(b!['digest']);
    expect(a!['plan']).toBe('PointGet(t)');
    expect(dup).toMatchObject({ kind: 'insert', errno: 1062, query: 'INSERT INTO t VALUES (...)' });
    expect(lines.join('\n')).not.toContain('dup');
    await s.close();
  });

  it('a large INSERT read from its bytes logs its text like one read from a string', async () => {
    const s = await open();
    lines.length = 0;
    const rows = Array.from({ length: 1500 }, (_, i) => `(${100 + i}, ${i}, 'é${i}')`).join(', ');
    const sql = `INSERT INTO t VALUES ${rows}`;
    const payload = Buffer.concat([Buffer.from([3]), Buffer.from(sql)]);
    expect(payload.length).toBeGreaterThan(16 * 1024);
    const run = s.queryBytes(payload, 1);
    expect(run).toBeDefined();
    expect(await run).toMatchObject({ kind: 'ok', affectedRows: 1500n });
    await s.query('DELETE FROM t WHERE id >= 100');
    await s.query(sql);
    const [bytes, , text] = slowLines();
    expect(bytes).toMatchObject({ kind: 'insert', query: 'INSERT INTO t VALUES (...) /* , ... */', rowsAffected: 1500 });
    expect(bytes!['digest']).toBe(text!['digest']);
    expect(text).toMatchObject({ query: bytes!['query'], rowsAffected: 1500 });
    lines.length = 0;
    // Anything else is left to query(): nothing ran, nothing was logged.
    expect(s.queryBytes(Buffer.from('\x03SELECT 1'), 1)).toBeUndefined();
    expect(s.queryBytes(Buffer.concat([payload, Buffer.from('; SELECT 1')]), 1)).toBeUndefined();
    expect(slowLines()).toHaveLength(0);
    await s.query('DELETE FROM t WHERE id >= 100');
    await s.close();
  });

  it('respects @@long_query_time (set by --slow-query-ms) per session', async () => {
    const s = await open();
    await s.query('SET SESSION long_query_time = 100');
    lines.length = 0;
    await s.query('SELECT * FROM t');
    expect(slowLines()).toEqual([]);
    const global = await s.query('SELECT @@global.long_query_time');
    expect(global.kind === 'rows' ? global.rows[0]?.[0] : undefined).toBe(0);
    await s.close();
  });
});
