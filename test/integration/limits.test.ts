/**
 * Limits and process control through mysql2, with several connections to one node: KILL QUERY /
 * KILL CONNECTION of a running statement (a large cross join), max_execution_time (hint and
 * variable), max_connections, wait_timeout, SHOW PROCESSLIST / information_schema.PROCESSLIST,
 * CREATE INDEX progress in the processlist, and the per-transaction write-buffer limit.
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillSettings } from '../../src/catalog/backfill.js';
import { removeDir, spawnedForSuite, startTestNode, type TestNode } from '../helpers/node.js';

/** 200 × 200 × 200 = 8M joined rows: about 2 s of work, so a KILL or a timeout lands mid-way. */
const SLOW = 'SELECT COUNT(*) AS n FROM t x, t y, t z';
const INTERRUPTED = { errno: 1317, sqlState: '70100', message: 'Query execution was interrupted' };
const TIMED_OUT = { errno: 3024, sqlState: 'HY000', message: 'Query execution was interrupted, maximum statement execution time exceeded' };

interface MysqlError {
  readonly errno?: number;
  readonly code?: string | number;
  readonly sqlState?: string;
  readonly message: string;
  readonly fatal?: boolean;
}

function failure(p: Promise<unknown>): Promise<MysqlError> {
  return p.then(
    () => {
      throw new Error('expected the statement to fail');
    },
    (err: MysqlError) => err,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('condition not reached in time');
    await sleep(5);
  }
}

describe('process control and limits', () => {
  let node: TestNode;
  let admin: mysql.Connection;
  const open: mysql.Connection[] = [];

  async function connect(extra: mysql.ConnectionOptions = {}): Promise<mysql.Connection> {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', database: 'lim', ...extra });
    c.on('error', () => undefined);
    open.push(c);
    return c;
  }

  async function processIds(): Promise<number[]> {
    const [rows] = await admin.query('SELECT ID FROM information_schema.PROCESSLIST ORDER BY ID');
    return (rows as Array<{ ID: number }>).map((r) => Number(r.ID));
  }

  beforeAll(async () => {
    node = await startTestNode('embedded');
    const boot = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
    await boot.query('CREATE DATABASE lim');
    await boot.end();
    admin = await connect();
    await admin.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
    await admin.query(`INSERT INTO t VALUES ${Array.from({ length: 200 }, (_, i) => `(${i}, ${i % 7})`).join(', ')}`);
    await admin.query('CREATE TABLE w (id INT PRIMARY KEY, note VARCHAR(20))');
    await admin.query('CREATE TABLE big (id INT PRIMARY KEY, s VARCHAR(8000))');
  });

  afterAll(async () => {
    for (const c of open) c.destroy();
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('lists connections in SHOW [FULL] PROCESSLIST and information_schema.PROCESSLIST', async () => {
    const a = await connect();
    const running = a.query(SLOW);
    await sleep(100);
    const [shown] = await admin.query('SHOW FULL PROCESSLIST');
    const mine = (shown as Array<Record<string, unknown>>).find((r) => r['Id'] === a.threadId);
    expect(mine).toMatchObject({ User: 'root', Host: '127.0.0.1', db: 'lim', Command: 'Query', State: 'executing', Info: SLOW });
    const [rows] = await admin.query(
      "SELECT ID, USER, DB, COMMAND, STATE, INFO FROM information_schema.processlist WHERE COMMAND <> 'Sleep' AND ID <> CONNECTION_ID() ORDER BY ID DESC",
    );
    expect(rows).toEqual([{ ID: a.threadId, USER: 'root', DB: 'lim', COMMAND: 'Query', STATE: 'executing', INFO: SLOW }]);
    const [own] = await admin.query('SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()');
    expect(own).toEqual([{ INFO: 'SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()' }]);
    const [count] = await admin.query("SELECT COUNT(*) AS n FROM INFORMATION_SCHEMA.PROCESSLIST WHERE USER = 'root' AND COMMAND = 'Sleep'");
    expect(Number((count as Array<{ n: number }>)[0]?.n)).toBeGreaterThanOrEqual(0);
    await admin.query(`KILL QUERY ${a.threadId}`);
    await running.catch(() => undefined);
    const [tables] = await admin.query('SHOW TABLES FROM information_schema');
    expect(tables).toEqual(expect.arrayContaining([{ Tables_in_information_schema: 'PROCESSLIST' }, { Tables_in_information_schema: 'TABLES' }]));
    const [cols] = await admin.query('DESCRIBE information_schema.PROCESSLIST');
    expect((cols as Array<{ Field: string; Type: string }>).map((c) => `${c.Field} ${c.Type}`)).toEqual([
      'ID bigint unsigned', 'USER varchar(32)', 'HOST varchar(261)', 'DB varchar(64)',
      'COMMAND varchar(16)', 'TIME int', 'STATE varchar(64)', 'INFO varchar(65535)',
    ]);
    const err = await failure(admin.query('DELETE FROM information_schema.processlist'));
    expect(err).toMatchObject({ errno: 1044, sqlState: '42000', message: "Access denied for user 'root'@'127.0.0.1' to database 'information_schema'" });
  });

  it('KILL QUERY interrupts the running statement with 1317 and keeps the connection and its transaction', async () => {
    const a = await connect();
    await a.query('BEGIN');
    await a.query("INSERT INTO w VALUES (1, 'before kill')");
    const started = Date.now();
    const killed = failure(a.query(SLOW));
    await sleep(150);
    await admin.query(`KILL QUERY ${a.threadId}`);
    expect(await killed).toMatchObject(INTERRUPTED);
    expect(Date.now() - started).toBeLessThan(1500);
    await a.query("INSERT INTO w VALUES (2, 'after kill')");
    await a.query('COMMIT');
    const [rows] = await admin.query('SELECT id FROM w WHERE id IN (1, 2) ORDER BY id');
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('KILL QUERY also interrupts a prepared statement', async () => {
    const a = await connect();
    const killed = failure(a.execute(SLOW));
    await sleep(150);
    await admin.query(`KILL QUERY ${a.threadId}`);
    expect(await killed).toMatchObject(INTERRUPTED);
  });

  it('KILL CONNECTION of a busy connection drops it and rolls its transaction back', async () => {
    const a = await connect();
    await a.query('BEGIN');
    await a.query("INSERT INTO w VALUES (10, 'lost')");
    const lost = failure(a.query(SLOW));
    await sleep(150);
    const [ok] = await admin.query(`KILL ${a.threadId}`);
    expect(ok).toMatchObject({ affectedRows: 0 });
    expect(await lost).toMatchObject({ code: 'PROTOCOL_CONNECTION_LOST', fatal: true, message: 'Connection lost: The server closed the connection.' });
    await waitFor(async () => ((await processIds()).includes(a.threadId) ? undefined : true), 3000);
    const [rows] = await admin.query('SELECT id FROM w WHERE id = 10');
    expect(rows).toEqual([]);
  });

  it('KILL CONNECTION of an idle connection closes it; its next statement fails', async () => {
    const a = await connect();
    await admin.query(`KILL CONNECTION ${a.threadId}`);
    const err = await failure(a.query('SELECT 1'));
    expect(err.fatal === true || /closed state/.test(err.message)).toBe(true);
    await waitFor(async () => ((await processIds()).includes(a.threadId) ? undefined : true), 3000);
  });

  it('KILL of its own connection answers 1317 and closes it; KILL QUERY of its own answers 1317', async () => {
    const a = await connect();
    expect(await failure(a.query('KILL QUERY CONNECTION_ID()'))).toMatchObject(INTERRUPTED);
    const [one] = await a.query('SELECT COUNT(*) AS x FROM t WHERE id = 1');
    expect(one).toEqual([{ x: 1 }]);
    expect(await failure(a.query('KILL CONNECTION_ID()'))).toMatchObject(INTERRUPTED);
    expect(await failure(a.query('SELECT 1'))).toMatchObject({ fatal: true });
  });

  it('without SUPER an account kills only its own connections (1095) and sees only them without PROCESS', async () => {
    await admin.query("CREATE USER 'limbob'@'%' IDENTIFIED BY 'pw'");
    const bob = await connect({ user: 'limbob', password: 'pw', database: undefined });
    const bob2 = await connect({ user: 'limbob', password: 'pw', database: undefined });
    expect(await failure(bob.query(`KILL ${admin.threadId}`))).toMatchObject({
      errno: 1095,
      sqlState: 'HY000',
      message: `You are not owner of thread ${admin.threadId}`,
    });
    const [seen] = await bob.query('SELECT DISTINCT USER FROM information_schema.PROCESSLIST');
    expect(seen).toEqual([{ USER: 'limbob' }]);
    await bob.query(`KILL QUERY ${bob2.threadId}`);
    await admin.query("GRANT PROCESS ON *.* TO 'limbob'@'%'");
    const [all] = await bob.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'root'");
    expect(Number((all as Array<{ n: number }>)[0]?.n)).toBeGreaterThan(0);
  });

  it('KILL of an unknown id is 1094', async () => {
    const err = await failure(admin.query('KILL 424242'));
    expect(err).toMatchObject({ errno: 1094, sqlState: 'HY000', message: 'Unknown thread id: 424242' });
    expect(await failure(admin.query('KILL QUERY 424243'))).toMatchObject({ errno: 1094, message: 'Unknown thread id: 424243' });
  });

  it('max_execution_time: the hint and the variable stop a SELECT with 3024; the transaction goes on', async () => {
    const a = await connect();
    let started = Date.now();
    expect(await failure(a.query(`SELECT /*+ MAX_EXECUTION_TIME(100) */ COUNT(*) FROM t x, t y, t z`))).toMatchObject(TIMED_OUT);
    expect(Date.now() - started).toBeLessThan(1500);
    await a.query('SET SESSION max_execution_time = 100');
    await a.query('BEGIN');
    await a.query("INSERT INTO w VALUES (20, 'kept')");
    started = Date.now();
    expect(await failure(a.query(SLOW))).toMatchObject(TIMED_OUT);
    expect(await failure(a.execute(SLOW))).toMatchObject(TIMED_OUT);
    expect(Date.now() - started).toBeLessThan(3000);
    const [quick] = await a.query('SELECT COUNT(*) AS n FROM t');
    expect(quick).toEqual([{ n: 200 }]);
    await a.query('COMMIT');
    const [rows] = await admin.query('SELECT note FROM w WHERE id = 20');
    expect(rows).toEqual([{ note: 'kept' }]);
    // The hint wins over the variable; 0 means no limit. Writes are not limited (MySQL: SELECT only).
    const [all] = await a.query('SELECT /*+ MAX_EXECUTION_TIME(0) */ COUNT(*) AS n FROM t x, t y');
    expect(all).toEqual([{ n: 40000 }]);
    await a.query('SET SESSION max_execution_time = DEFAULT');
    const [v] = await a.query('SELECT @@max_execution_time AS v');
    expect(v).toEqual([{ v: 0 }]);
  });

  it('wait_timeout: an idle connection is closed with 4031', async () => {
    const a = await connect();
    const closed = new Promise<MysqlError>((resolve) => a.on('error', resolve));
    await a.query('SET SESSION wait_timeout = 1');
    const started = Date.now();
    const err = await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(err).toMatchObject({
      code: 4031,
      fatal: true,
      message: 'The client was disconnected by the server because of inactivity. See wait_timeout and interactive_timeout for configuring this behavior.',
    });
    await waitFor(async () => ((await processIds()).includes(a.threadId) ? undefined : true), 3000);
  });

  it('an interactive client starts with wait_timeout = @@global.interactive_timeout', async () => {
    await admin.query('SET GLOBAL interactive_timeout = 1234');
    try {
      const interactive = await connect({ flags: ['INTERACTIVE'] });
      const [v] = await interactive.query('SELECT @@session.wait_timeout AS w, @@session.interactive_timeout AS i');
      expect(v).toEqual([{ w: 1234, i: 1234 }]);
      const plain = await connect();
      const [p] = await plain.query('SELECT @@session.wait_timeout AS w');
      expect(p).toEqual([{ w: 28800 }]);
    } finally {
      await admin.query('SET GLOBAL interactive_timeout = DEFAULT');
    }
  });

  it('shale_txn_max_bytes: the statement that crosses it fails with 1105, the transaction stays usable', async () => {
    const a = await connect();
    await a.query('SET SESSION shale_txn_max_bytes = 10000');
    await a.query('BEGIN');
    for (let id = 1; id <= 3; id++) await a.query('INSERT INTO big VALUES (?, REPEAT(?, 3000))', [id, 'x']);
    const err = await failure(a.query("INSERT INTO big VALUES (4, REPEAT('x', 3000))"));
    expect(err.errno).toBe(1105);
    expect(err.message).toMatch(/^Transaction is too large: buffered writes reach \d+ bytes, over shale_txn_max_bytes = 10000$/);
    await a.query("INSERT INTO big VALUES (5, 'small')");
    await a.query('COMMIT');
    const [rows] = await admin.query('SELECT id, LENGTH(s) AS len FROM big ORDER BY id');
    expect(rows).toEqual([{ id: 1, len: 3000 }, { id: 2, len: 3000 }, { id: 3, len: 3000 }, { id: 5, len: 5 }]);
    // Autocommit: the whole statement is rolled back.
    expect((await failure(a.query("INSERT INTO big VALUES (6, REPEAT('y', 6000)), (7, REPEAT('y', 6000))"))).errno).toBe(1105);
    const [none] = await admin.query('SELECT id FROM big WHERE id IN (6, 7)');
    expect(none).toEqual([]);
    const [shown] = await a.query("SHOW VARIABLES LIKE 'shale_txn_max_bytes'");
    expect(shown).toEqual([{ Variable_name: 'shale_txn_max_bytes', Value: '10000' }]);
  });

  it('CREATE INDEX shows backfill progress in the processlist; KILL QUERY abandons the index', async () => {
    await admin.query('CREATE TABLE many (id INT PRIMARY KEY, v INT)');
    for (let b = 0; b < 20; b++) {
      const rows = Array.from({ length: 1000 }, (_, i) => `(${b * 1000 + i}, ${(b * 1000 + i) % 97})`).join(', ');
      await admin.query(`INSERT INTO many VALUES ${rows}`);
    }
    const saved = backfillSettings.batchSize;
    backfillSettings.batchSize = 50;
    try {
      const a = await connect();
      const stateOf = async (): Promise<string | undefined> => {
        const [rows] = await admin.query('SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = ?', [a.threadId]);
        const state = (rows as Array<{ STATE: string }>)[0]?.STATE ?? '';
        return state.startsWith('backfilling') ? state : undefined;
      };
      const building = failure(a.query('CREATE INDEX k_v ON many (v)'));
      const state = await waitFor(stateOf, 10_000);
      expect(state).toMatch(/^backfilling index k_v: \d+\/20000 rows \(\d+%\)(, ETA \d+ s)?$/);
      await admin.query(`KILL QUERY ${a.threadId}`);
      expect(await building).toMatchObject(INTERRUPTED);
      const [indexes] = await admin.query("SHOW INDEX FROM many WHERE Key_name = 'k_v'");
      expect(indexes).toEqual([]);
      backfillSettings.batchSize = 2000;
      await a.query('CREATE INDEX k_v ON many (v)');
      const [used] = await a.query('SELECT COUNT(*) AS n FROM many WHERE v = 5');
      expect(used).toEqual([{ n: 207 }]);
    } finally {
      backfillSettings.batchSize = saved;
    }
  });
});

describe('max_connections', () => {
  let node: TestNode;

  beforeAll(async () => {
    node = await startTestNode('embedded');
  });

  afterAll(async () => {
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('SET GLOBAL max_connections = 3: the fourth connection gets 1040 Too many connections', async () => {
    const connect = (): Promise<mysql.Connection> => mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
    const admin = await connect();
    await admin.query('SET GLOBAL max_connections = 3');
    const [v] = await admin.query('SELECT @@GLOBAL.max_connections AS v');
    expect(v).toEqual([{ v: 3 }]);
    const second = await connect();
    const third = await connect();
    const err = await failure(connect());
    expect(err).toMatchObject({ errno: 1040, code: 'ER_CON_COUNT_ERROR', message: 'Too many connections' });
    await third.end();
    const again = await waitFor(async () => connect().catch(() => undefined), 3000);
    await admin.query('SET GLOBAL max_connections = DEFAULT');
    const [d] = await admin.query('SELECT @@GLOBAL.max_connections AS v');
    expect(d).toEqual([{ v: 151 }]);
    for (const c of [again, second, admin]) await c.end();
  });
});

describe('KILL across --workers processes', () => {
  const server = spawnedForSuite('limits-workers', ['--workers', '2']);

  it("another worker's connection of another account needs SUPER (1095); an id no worker has is 1094", async () => {
    const conns: mysql.Connection[] = [];
    const workerOf = (c: mysql.Connection): number => Math.floor(c.threadId / 100_000_000);
    try {
      const root = await mysql.createConnection({ host: '127.0.0.1', port: server().port, user: 'root' });
      conns.push(root);
      await root.query("CREATE USER 'plain'@'%' IDENTIFIED BY 'pw'");
      let plain: mysql.Connection | undefined;
      for (let i = 0; i < 100 && plain === undefined; i++) {
        const c = await mysql.createConnection({ host: '127.0.0.1', port: server().port, user: 'plain', password: 'pw' });
        conns.push(c);
        if (workerOf(c) !== workerOf(root)) plain = c;
        else await sleep(50); // the second worker may still be starting
      }
      expect(plain).toBeDefined();
      const err = await failure((plain as mysql.Connection).query(`KILL ${root.threadId}`));
      expect(err).toMatchObject({ errno: 1095, message: `You are not owner of thread ${root.threadId}` });
      const unknown = await failure(root.query('KILL 199999999'));
      expect(unknown).toMatchObject({ errno: 1094, message: 'Unknown thread id: 199999999' });
    } finally {
      for (const c of conns) await c.end();
    }
  });
});
