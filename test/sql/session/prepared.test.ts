import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/sql/session/index.js';
import { errnoOf, openTestEngine, SBTEST_DDL, scalar, textRows, type TestEngine } from './session-helpers.js';

let t: TestEngine;
let s: Session;

beforeAll(async () => {
  t = await openTestEngine();
  s = await t.open();
  await s.query('CREATE DATABASE ps');
  await s.query('USE ps');
  await s.query(SBTEST_DDL);
  await s.query("INSERT INTO sbtest1 (k, c, pad) VALUES (10, 'a', 'x'), (20, 'b', 'y'), (30, 'c', 'z')");
});
afterAll(async () => {
  await s.close();
  await t.close();
});

describe('prepared statements', () => {
  it('plans once and runs with parameters', async () => {
    const sel = await s.prepare('SELECT c FROM sbtest1 WHERE id=?');
    expect(sel.paramCount).toBe(1);
    expect(sel.columns.map((c) => c.name)).toEqual(['c']);
    expect(textRows(await sel.execute([2n]))).toEqual([['b']]);
    expect(textRows(await sel.execute([3n]))).toEqual([['c']]);
    expect(await errnoOf(sel.execute([]))).toBe(1210);
    const upd = await s.prepare('UPDATE sbtest1 SET k=k+1 WHERE id=?');
    const r = await upd.execute([1n]);
    expect(r.kind === 'ok' && r.affectedRows).toBe(1n);
    expect(await scalar(s, 'SELECT k FROM sbtest1 WHERE id = 1')).toBe('11');
    sel.close();
    upd.close();
  });

  it('BEGIN / COMMIT / SET are preparable (sysbench)', async () => {
    const begin = await s.prepare('BEGIN');
    const commit = await s.prepare('COMMIT');
    const setv = await s.prepare('SET @@session.net_read_timeout = ?');
    await begin.execute([]);
    expect(s.inTransaction()).toBe(true);
    await commit.execute([]);
    expect(s.inTransaction()).toBe(false);
    await setv.execute([45n]);
    expect(await scalar(s, 'SELECT @@net_read_timeout')).toBe('45');
    const setu = await s.prepare('SET @u = ?');
    await setu.execute(['hello']);
    expect(await scalar(s, 'SELECT @u')).toBe('hello');
  });

  it('re-plans after a schema change between executes', async () => {
    const sel = await s.prepare('SELECT * FROM sbtest1 WHERE id = ?');
    expect(sel.columns.map((c) => c.name)).toEqual(['id', 'k', 'c', 'pad']);
    expect(textRows(await sel.execute([2n]))).toEqual([['2', '20', 'b', 'y']]);
    await s.query('CREATE INDEX k_1 ON sbtest1(k)');
    expect(textRows(await sel.execute([2n]))).toEqual([['2', '20', 'b', 'y']]);
    await s.query('DROP TABLE sbtest1');
    expect(await errnoOf(sel.execute([2n]))).toBe(1146);
    await s.query(SBTEST_DDL);
    await s.query("INSERT INTO sbtest1 (k, c, pad) VALUES (5, 'n', 'p')");
    expect(textRows(await sel.execute([1n]))).toEqual([['1', '5', 'n', 'p']]);
  });

  it('prepare of a missing table fails like MySQL (1146)', async () => {
    expect(await errnoOf(s.prepare('SELECT * FROM nope WHERE id = ?'))).toBe(1146);
  });
});
