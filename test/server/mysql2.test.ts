import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { DateTime, Decimal } from '../../src/types/index.js';
import { FakeEngine } from './helpers/fake-engine.js';

let engine: FakeEngine;
let server: RunningServer;

beforeAll(async () => {
  engine = new FakeEngine();
  server = await startServer({ host: '127.0.0.1', port: 0, engine, logger: pino({ level: 'silent' }) });
});

afterAll(async () => {
  await server.close();
  // every session opened was closed exactly once
  expect(engine.received.closes.size).toBe(engine.received.sessionsOpened);
  for (const n of engine.received.closes.values()) expect(n).toBe(1);
});

function connect(opts: mysql.ConnectionOptions = {}): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'test', ...opts });
}

interface MysqlError {
  errno: number;
  sqlState: string;
  sqlMessage: string;
  code: string;
}

async function failure(p: Promise<unknown>): Promise<MysqlError> {
  try {
    await p;
  } catch (err) {
    return err as MysqlError;
  }
  throw new Error('expected a failure');
}

describe('mysql2 against the server', () => {
  it('connects, passes the handshake collation and runs text queries', async () => {
    const c = await connect();
    try {
      const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT 1');
      expect(rows).toEqual([{ 1: 1 }]);
      const opts = engine.received.options.at(-1);
      expect(opts).toMatchObject({ user: 'root', host: '127.0.0.1', database: 'test', collationId: 224, foundRows: true });
      expect(c.threadId).toBeGreaterThanOrEqual(1);
    } finally {
      await c.end();
    }
  });

  it('returns typed text rows: BIGINT > 2^53 and DECIMAL as strings, DATETIME, TIME, BLOB, NULL', async () => {
    const c = await connect({ supportBigNumbers: true, bigNumberStrings: true, dateStrings: true });
    try {
      const [rows, fields] = await c.query<mysql.RowDataPacket[]>('SELECT typed');
      expect(rows[0]).toEqual({
        id: '1', big: '18446744073709551615', price: '12.50', ratio: 0.1, f: 0.1, name: 'héllo',
        created: '2024-01-02 03:04:05.678', day: '2024-02-29', dur: '-25:01:02', data: Buffer.from([0, 1, 255]), small: -5, n: 7,
      });
      expect(Object.values(rows[1] ?? {}).slice(1).every((v) => v === null)).toBe(true);
      expect(fields.map((f) => f.type)).toEqual([8, 8, 246, 5, 4, 253, 12, 10, 11, 252, 1, 3]);
      expect(fields[5]?.characterSet).toBe(224);
    } finally {
      await c.end();
    }
  });

  it('returns the same values through the binary protocol (execute)', async () => {
    const c = await connect({ supportBigNumbers: true, bigNumberStrings: true, dateStrings: true });
    try {
      const [rows] = await c.execute<mysql.RowDataPacket[]>('SELECT typed');
      expect(rows[0]).toEqual({
        id: '1', big: '18446744073709551615', price: '12.50', ratio: 0.1, f: Math.fround(0.1), name: 'héllo',
        created: '2024-01-02 03:04:05.678', day: '2024-02-29', dur: '-25:01:02', data: Buffer.from([0, 1, 255]), small: -5, n: 7,
      });
      expect(Object.values(rows[1] ?? {}).slice(1).every((v) => v === null)).toBe(true);
    } finally {
      await c.end();
    }
  });

  it('decodes execute parameters: number, string, bigint, Date, Buffer, null', async () => {
    const c = await connect();
    try {
      const when = new Date(2024, 0, 2, 3, 4, 5, 678);
      const [rows] = await c.execute<mysql.RowDataPacket[]>('SELECT ?, ?, ?, ?, ?, ?', [1.5, 'héllo', 12345678901234567890n, when, Buffer.from([1, 2]), null]);
      expect(rows).toEqual([{ params: 6 }]);
      const params = engine.received.executes.at(-1)?.params ?? [];
      expect(params[0]).toBe(1.5);
      expect(params[1]).toBe('héllo');
      expect(params[2]).toBe('12345678901234567890'); // mysql2 binds bigint as a string
      expect(params[3]).toEqual(new DateTime('datetime', 2024, 1, 2, 3, 4, 5, 678000, 6));
      expect(params[4]).toEqual(new Uint8Array([1, 2]));
      expect(params[5]).toBeNull();
      // the cached statement is re-executed with new values
      await c.execute('SELECT ?, ?, ?, ?, ?, ?', [2, 'x', 1n, when, Buffer.alloc(0), 'y']);
      expect(engine.received.executes.at(-1)?.params.slice(0, 2)).toEqual([2, 'x']);
    } finally {
      await c.end();
    }
  });

  it('reports OK packets: affected rows, bigint insert id, info', async () => {
    const c = await connect({ supportBigNumbers: true, bigNumberStrings: true });
    try {
      const [res] = await c.query<mysql.ResultSetHeader>('INSERT INTO t VALUES (1),(2),(3)');
      expect(res.affectedRows).toBe(3);
      expect(String(res.insertId)).toBe(String(1n << 60n));
      // The info is length-encoded (as MySQL sends it); mysql2 keeps the length byte in front.
      expect(res.info.slice(1)).toBe('Records: 3  Duplicates: 0  Warnings: 0');
    } finally {
      await c.end();
    }
  });

  it('runs multi-statements only when negotiated', async () => {
    const multi = await connect({ multipleStatements: true });
    try {
      const [results] = await multi.query<mysql.RowDataPacket[][]>('SELECT 1; BEGIN; SELECT typed');
      expect(results).toHaveLength(3);
      expect(results[0]).toEqual([{ 1: 1 }]);
      expect(results[2]).toHaveLength(2);
      const err = await failure(multi.query('SELECT 1; SELECT * FROM missing; SELECT 1'));
      expect(err.errno).toBe(1051);
    } finally {
      await multi.end();
    }
    const single = await connect();
    try {
      const before = engine.received.queries.length;
      const err = await failure(single.query('SELECT 1;  SELECT 2'));
      expect(err.errno).toBe(1064);
      expect(err.sqlState).toBe('42000');
      expect(err.sqlMessage).toBe(
        "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELECT 2' at line 1",
      );
      expect(engine.received.queries.length).toBe(before); // nothing ran
      const empty = await failure(single.query(' ; '));
      expect([empty.errno, empty.sqlMessage]).toEqual([1065, 'Query was empty']);
    } finally {
      await single.end();
    }
  });

  it('surfaces SqlErrors and internal errors with errno, sqlState and message', async () => {
    const c = await connect();
    try {
      const e1 = await failure(c.query('SELECT * FROM missing'));
      expect([e1.errno, e1.sqlState, e1.sqlMessage, e1.code]).toEqual([1051, '42S02', "Unknown table 'test.missing'", 'ER_BAD_TABLE_ERROR']);
      const e2 = await failure(c.query('CRASH'));
      expect([e2.errno, e2.sqlState, e2.sqlMessage]).toEqual([1105, 'HY000', 'boom']);
      const e3 = await failure(c.execute('UNPREPARABLE ?', [1]));
      expect(e3.errno).toBe(1295);
      // still usable
      const [rows] = await c.query('SELECT 1');
      expect(rows).toEqual([{ 1: 1 }]);
    } finally {
      await c.end();
    }
  });

  it('tracks IN_TRANS and AUTOCOMMIT in status flags', async () => {
    const c = await connect();
    try {
      const [begin] = await c.query<mysql.ResultSetHeader>('BEGIN');
      expect(begin.serverStatus & 0x3).toBe(0x3);
      const [commit] = await c.query<mysql.ResultSetHeader>('COMMIT');
      expect(commit.serverStatus & 0x3).toBe(0x2);
    } finally {
      await c.end();
    }
  });

  it('pings, changes user (with password) and rejects bad credentials and unknown databases', async () => {
    const c = await connect();
    try {
      await c.ping();
      await c.changeUser({ user: 'alice', password: 's3cret-pw', database: 'app' });
      expect(engine.received.options.at(-1)).toMatchObject({ user: 'alice', database: 'app' });
      await c.ping();
    } finally {
      await c.end();
    }
    const bad = await failure(connect({ user: 'alice', password: 'wrong' }));
    expect([bad.errno, bad.sqlState, bad.sqlMessage]).toEqual([1045, '28000', "Access denied for user 'alice'@'127.0.0.1' (using password: YES)"]);
    const noPw = await failure(connect({ user: 'alice' }));
    expect(noPw.sqlMessage).toBe("Access denied for user 'alice'@'127.0.0.1' (using password: NO)");
    const db = await failure(connect({ database: 'nope' }));
    expect([db.errno, db.sqlState, db.sqlMessage]).toEqual([1049, '42000', "Unknown database 'nope'"]);
    const ok = await connect({ user: 'alice', password: 's3cret-pw' });
    await ok.end();
  });

  it('streams large result sets', async () => {
    const c = await connect();
    try {
      const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT MANY 30000');
      expect(rows).toHaveLength(30000);
      expect(rows[29999]).toEqual({ i: 29999, s: 'x'.repeat(100) });
    } finally {
      await c.end();
    }
  });

  it('resets the connection', async () => {
    const c = await connect();
    try {
      await c.query('BEGIN');
      const resets = engine.received.resets;
      await c.reset();
      expect(engine.received.resets).toBe(resets + 1);
      const [res] = await c.query<mysql.ResultSetHeader>('SELECT 2');
      expect(res.serverStatus & 1).toBe(0);
    } finally {
      await c.end();
    }
  });

  it('keeps Decimal values exact', () => {
    expect(new Decimal('12.5').toFixed(2)).toBe('12.50');
  });
});
