import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errnoOf, openTestEngine, scalar, textRows, type TestEngine } from './session-helpers.js';

let t: TestEngine;

beforeAll(async () => {
  t = await openTestEngine();
  const s = await t.open();
  await s.query('CREATE DATABASE txdb');
  await s.close();
});
afterAll(async () => {
  await t.close();
});

async function freshTable(name: string): Promise<void> {
  const s = await t.open('txdb');
  await s.query(`CREATE TABLE ${name} (id INT PRIMARY KEY, v INT NOT NULL)`);
  await s.query(`INSERT INTO ${name} VALUES (1, 0), (2, 0)`);
  await s.close();
}

describe('autocommit and IN_TRANS', () => {
  it('BEGIN sets IN_TRANS, COMMIT/ROLLBACK clear it', async () => {
    const s = await t.open('txdb');
    expect(s.autocommit()).toBe(true);
    expect(s.inTransaction()).toBe(false);
    await s.query('BEGIN');
    expect(s.inTransaction()).toBe(true);
    await s.query('COMMIT');
    expect(s.inTransaction()).toBe(false);
    await s.query('START TRANSACTION');
    await s.query('ROLLBACK');
    expect(s.inTransaction()).toBe(false);
    await s.close();
  });

  it('autocommit=0 opens a transaction at the first statement; SET autocommit=1 commits it', async () => {
    await freshTable('ac');
    const a = await t.open('txdb');
    const b = await t.open('txdb');
    await a.query('SET autocommit = 0');
    expect(a.autocommit()).toBe(false);
    expect(a.inTransaction()).toBe(false);
    await a.query('UPDATE ac SET v = 7 WHERE id = 1');
    expect(a.inTransaction()).toBe(true);
    expect(await scalar(b, 'SELECT v FROM ac WHERE id = 1')).toBe('0');
    await a.query('SET autocommit = 1');
    expect(a.inTransaction()).toBe(false);
    expect(a.autocommit()).toBe(true);
    expect(await scalar(b, 'SELECT v FROM ac WHERE id = 1')).toBe('7');
    await a.close();
    await b.close();
  });

  it('BEGIN and DDL implicitly commit an open transaction', async () => {
    await freshTable('ic');
    const a = await t.open('txdb');
    const b = await t.open('txdb');
    await a.query('BEGIN');
    await a.query('UPDATE ic SET v = 1 WHERE id = 1');
    await a.query('BEGIN');
    expect(a.inTransaction()).toBe(true);
    expect(await scalar(b, 'SELECT v FROM ic WHERE id = 1')).toBe('1');
    await a.query('UPDATE ic SET v = 2 WHERE id = 1');
    await a.query('CREATE TABLE ic_other (id INT PRIMARY KEY)');
    expect(a.inTransaction()).toBe(false);
    expect(await scalar(b, 'SELECT v FROM ic WHERE id = 1')).toBe('2');
    await a.query('ROLLBACK');
    expect(await scalar(b, 'SELECT v FROM ic WHERE id = 1')).toBe('2');
    await a.close();
    await b.close();
  });

  it('a failed statement inside a transaction is undone alone', async () => {
    await freshTable('atom');
    const s = await t.open('txdb');
    await s.query('BEGIN');
    await s.query('INSERT INTO atom VALUES (3, 3)');
    expect(await errnoOf(s.query('INSERT INTO atom VALUES (4, 4), (1, 1)'))).toBe(1062);
    expect(s.inTransaction()).toBe(true);
    await s.query('COMMIT');
    expect(textRows(await s.query('SELECT id FROM atom ORDER BY id'))).toEqual([['1'], ['2'], ['3']]);
    await s.close();
  });

  it('SAVEPOINT / ROLLBACK TO / RELEASE', async () => {
    await freshTable('sp');
    const s = await t.open('txdb');
    await s.query('BEGIN');
    await s.query('UPDATE sp SET v = 1 WHERE id = 1');
    await s.query('SAVEPOINT `a`');
    await s.query('UPDATE sp SET v = 2 WHERE id = 2');
    await s.query('SAVEPOINT b');
    await s.query('UPDATE sp SET v = 3 WHERE id = 1');
    await s.query('ROLLBACK TO SAVEPOINT a');
    expect(textRows(await s.query('SELECT v FROM sp ORDER BY id'))).toEqual([['1'], ['0']]);
    expect(await errnoOf(s.query('ROLLBACK TO SAVEPOINT b'))).toBe(1305);
    await s.query('RELEASE SAVEPOINT a');
    expect(await errnoOf(s.query('RELEASE SAVEPOINT a'))).toBe(1305);
    await s.query('COMMIT');
    expect(textRows(await s.query('SELECT v FROM sp ORDER BY id'))).toEqual([['1'], ['0']]);
    await s.close();
  });

  it('ROW_COUNT() and LAST_INSERT_ID()', async () => {
    const s = await t.open('txdb');
    await s.query('CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
    const ins = await s.query('INSERT INTO ai (v) VALUES (1), (2)');
    expect(ins.kind === 'ok' && ins.insertId).toBe(1n);
    expect(await scalar(s, 'SELECT ROW_COUNT()')).toBe('2');
    expect(await scalar(s, 'SELECT LAST_INSERT_ID()')).toBe('1');
    expect(await scalar(s, 'SELECT @@last_insert_id')).toBe('1');
    await s.close();
  });
});

describe('write conflicts', () => {
  it('the second COMMIT of conflicting transactions gets 1213 and is fully rolled back', async () => {
    await freshTable('wc');
    const a = await t.open('txdb');
    const b = await t.open('txdb');
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query('UPDATE wc SET v = v + 1 WHERE id = 1');
    await b.query('UPDATE wc SET v = v + 10 WHERE id = 2');
    await b.query('UPDATE wc SET v = v + 10 WHERE id = 1');
    await a.query('COMMIT');
    expect(await errnoOf(b.query('COMMIT'))).toBe(1213);
    expect(b.inTransaction()).toBe(false);
    expect(textRows(await b.query('SELECT v FROM wc ORDER BY id'))).toEqual([['1'], ['0']]);
    await b.query('BEGIN');
    expect(b.inTransaction()).toBe(true);
    await b.query('ROLLBACK');
    await a.close();
    await b.close();
  });

  it('autocommit UPDATE conflicts are retried internally (exact count)', async () => {
    await freshTable('hot');
    const sessions = await Promise.all([t.open('txdb'), t.open('txdb'), t.open('txdb')]);
    const perSession = 40;
    await Promise.all(
      sessions.map(async (s) => {
        for (let i = 0; i < perSession; i++) await s.query('UPDATE hot SET v = v + 1 WHERE id = 1');
      }),
    );
    const first = sessions[0];
    if (first === undefined) throw new Error('no session');
    expect(await scalar(first, 'SELECT v FROM hot WHERE id = 1')).toBe(String(perSession * sessions.length));
    await Promise.all(sessions.map((s) => s.close()));
  });

  it('READ ONLY transactions refuse writes with 1792', async () => {
    await freshTable('ro');
    const s = await t.open('txdb');
    await s.query('START TRANSACTION READ ONLY');
    expect(await errnoOf(s.query('UPDATE ro SET v = 1'))).toBe(1792);
    expect(await scalar(s, 'SELECT COUNT(*) FROM ro')).toBe('2');
    await s.query('COMMIT');
    await s.close();
  });

  it('close() rolls back an open transaction', async () => {
    await freshTable('cl');
    const a = await t.open('txdb');
    await a.query('BEGIN');
    await a.query('UPDATE cl SET v = 9');
    await a.close();
    await a.close();
    const b = await t.open('txdb');
    expect(await scalar(b, 'SELECT MAX(v) FROM cl')).toBe('0');
    await b.close();
  });
});
