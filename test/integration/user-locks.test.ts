/**
 * User-level locks and SLEEP through mysql2: a waiter wakes when the holder releases, KILL QUERY
 * interrupts SLEEP and a GET_LOCK wait (1317, connection kept), a closed or killed connection
 * releases its locks, and (spawned with --workers 2) locks hold across the SQL processes.
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, spawnNode, startTestNode, tempDir, type SpawnedNode, type TestNode } from '../helpers/node.js';

type Row = Record<string, unknown>;

async function one(c: mysql.Connection, sql: string): Promise<Row> {
  const [rows] = await c.query(sql);
  return (rows as Row[])[0] ?? {};
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe('user-level locks over the wire', () => {
  let node: TestNode;
  const open: mysql.Connection[] = [];

  async function connect(port = node.port): Promise<mysql.Connection> {
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    c.on('error', () => undefined);
    open.push(c);
    return c;
  }

  beforeAll(async () => {
    node = await startTestNode('embedded');
  });

  afterAll(async () => {
    for (const c of open) c.destroy();
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('wakes a waiting GET_LOCK when the holder releases', async () => {
    const a = await connect();
    const b = await connect();
    expect(await one(a, "SELECT GET_LOCK('wake', 0) AS r")).toEqual({ r: 1 });
    const waiting = one(b, "SELECT GET_LOCK('wake', 30) AS r");
    await sleep(100);
    expect(await one(a, "SELECT RELEASE_LOCK('wake') AS r")).toEqual({ r: 1 });
    expect(await waiting).toEqual({ r: 1 });
    expect(await one(a, "SELECT IS_USED_LOCK('wake') = " + String(b.threadId) + ' AS r')).toEqual({ r: 1 });
  });

  it('KILL QUERY interrupts SLEEP and a GET_LOCK wait; the connection stays usable', async () => {
    const a = await connect();
    const b = await connect();
    const slept = b.query('SELECT SLEEP(30)').then(() => null, (e: { errno?: number }) => e.errno);
    await sleep(100);
    await a.query(`KILL QUERY ${b.threadId}`);
    expect(await slept).toBe(1317);
    await a.query("SELECT GET_LOCK('held', 0)");
    const waited = b.query("SELECT GET_LOCK('held', 30)").then(() => null, (e: { errno?: number }) => e.errno);
    await sleep(100);
    await a.query(`KILL QUERY ${b.threadId}`);
    expect(await waited).toBe(1317);
    expect(await one(b, 'SELECT 1 AS ok')).toEqual({ ok: 1 });
  });

  it('releases the locks of a connection that ends or is killed', async () => {
    const a = await connect();
    const b = await connect();
    const c = await connect();
    await b.query("SELECT GET_LOCK('gone1', 0), GET_LOCK('gone1', 0)");
    await c.query("SELECT GET_LOCK('gone2', 0)");
    await b.end();
    await a.query(`KILL ${c.threadId}`);
    expect(await one(a, "SELECT GET_LOCK('gone1', 10) AS x, GET_LOCK('gone2', 10) AS y")).toEqual({ x: 1, y: 1 });
  });
});

describe('user-level locks across worker processes', () => {
  let spawned: SpawnedNode | undefined;
  let dir: string;
  const open: mysql.Connection[] = [];

  beforeAll(async () => {
    dir = tempDir('locks-workers');
    spawned = await spawnNode(dir, ['--workers', '2']);
  });

  afterAll(async () => {
    for (const c of open) c.destroy();
    await spawned?.stop();
    removeDir(dir);
  });

  it('a lock taken in one worker is held for sessions of the other', async () => {
    const conns: mysql.Connection[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await mysql.createConnection({ host: '127.0.0.1', port: spawned?.port ?? 0, user: 'root' });
      open.push(c);
      conns.push(c);
    }
    const [first, ...others] = conns as [mysql.Connection, ...mysql.Connection[]];
    expect(await one(first, "SELECT GET_LOCK('cross', 0) AS r")).toEqual({ r: 1 });
    for (const c of others) {
      expect(await one(c, "SELECT GET_LOCK('cross', 0) AS r, IS_USED_LOCK('cross') AS u")).toEqual({ r: 0, u: first.threadId });
    }
    await first.query("SELECT RELEASE_LOCK('cross')");
    const second = others[0] as mysql.Connection;
    expect(await one(second, "SELECT GET_LOCK('cross', 0) AS r")).toEqual({ r: 1 });
  });
});
