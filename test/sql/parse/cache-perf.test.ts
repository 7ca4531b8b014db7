import { describe, expect, it } from 'vitest';
import { parseStatement, splitStatements, StatementCache } from '../../../src/sql/parse/index.js';

function sysbenchInsert(rows: number): string {
  const digits = (groups: number) => Array.from({ length: groups }, () => String(Math.floor(Math.random() * 1e11)).padStart(11, '0')).join('-');
  const values = Array.from({ length: rows }, () => `(${Math.floor(Math.random() * 100000)}, '${digits(10)}', '${digits(5)}')`);
  return `INSERT INTO sbtest1(k, c, pad) VALUES${values.join(',')}`;
}

describe('fast INSERT path', () => {
  it('parses a 512 KiB sysbench prepare INSERT well under 100 ms', () => {
    const sql = sysbenchInsert(2716);
    expect(sql.length).toBeGreaterThan(500_000);
    let ms = Infinity;
    let r = parseStatement(sql);
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      r = parseStatement(sql);
      ms = Math.min(ms, performance.now() - t0);
    }
    const t1 = performance.now();
    splitStatements(sql);
    const splitMs = performance.now() - t1;
    console.log(`512 KiB INSERT: parse ${ms.toFixed(1)} ms, split ${splitMs.toFixed(1)} ms`);
    expect(r.stmt.kind === 'insert' && r.stmt.rows.length).toBe(2716);
    expect(ms).toBeLessThan(100);
    const big = new StatementCache();
    const c = big.parse(sql);
    expect(c.digest).toBeNull();
    expect(c.stmt.kind === 'insert' && c.stmt.rows[0]?.[0]?.kind).toBe('literal');
  });
});

describe('StatementCache', () => {
  it('lifts literals into params and reuses the AST', () => {
    const cache = new StatementCache();
    const a = cache.parse('SELECT c FROM sbtest1 WHERE id=5');
    const b = cache.parse("SELECT c FROM sbtest1 WHERE id='7'");
    expect(a.digest).toBe('SELECT c FROM sbtest1 WHERE id=?');
    expect(b.digest).toBe(a.digest);
    expect(b.stmt).toBe(a.stmt);
    expect(a.params).toEqual([5n]);
    expect(b.params).toEqual(['7']);
    expect(a.stmt).toMatchObject({ where: { right: { kind: 'param', index: 0 } } });
  });
  it('whitespace/comments normalize; labels stay exact', () => {
    const cache = new StatementCache();
    const a = cache.parse('SELECT a+1 AS x FROM t /* c */ WHERE  id = 1 LIMIT 10');
    const b = cache.parse('SELECT a+1 AS x FROM t WHERE id = 2 LIMIT 20');
    expect(a.digest).toBe(b.digest);
    expect(b.params).toEqual([2n, 20n]); // select-item literals stay in the text (they type the column)
    const c = cache.parse('SELECT a + 1 AS x FROM t WHERE id = 2 LIMIT 20');
    expect(c.digest).not.toBe(a.digest);
  });
  it('keeps select-list literals (column labels) in the digest', () => {
    const cache = new StatementCache();
    const a = cache.parse('select @@version_comment limit 1');
    expect(a.digest).toBe('select @@version_comment limit ?');
    expect(a.params).toEqual([1n]);
    const one = cache.parse('SELECT 1');
    const two = cache.parse('SELECT 2');
    expect(one.digest).not.toBe(two.digest);
    expect(two.stmt).toMatchObject({ items: [{ text: '2', expr: { kind: 'literal', value: 2n } }] });
  });
  it('marks statements with literals in restricted positions uncacheable', () => {
    const cache = new StatementCache();
    const a = cache.parse('SELECT a FROM t ORDER BY a, 2');
    expect(a.digest).toBeNull();
    expect(a.stmt).toMatchObject({ orderBy: [{}, { expr: { kind: 'literal', value: 2n } }] });
    const b = cache.parse('SELECT a FROM t ORDER BY a, 3');
    expect(b.digest).toBeNull();
    expect(b.stmt).toMatchObject({ orderBy: [{}, { expr: { kind: 'literal', value: 3n } }] });
  });
  it('does not cache placeholder statements or non-DML', () => {
    const cache = new StatementCache();
    expect(cache.parse('SELECT c FROM t WHERE id=?').digest).toBeNull();
    expect(cache.parse('SET autocommit=1').digest).toBeNull();
    expect(cache.parse('BEGIN').stmt).toEqual({ kind: 'begin', readOnly: false });
  });
  it('caches small INSERTs and UPDATE/DELETE', () => {
    const cache = new StatementCache();
    const a = cache.parse("INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, 5, 'x', 'y')");
    const b = cache.parse("INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, 6, 'z', 'w')");
    expect(b.stmt).toBe(a.stmt);
    expect(b.params).toEqual([0n, 6n, 'z', 'w']);
    const u = cache.parse("UPDATE t SET c='a' WHERE id = 3");
    expect(u.params).toEqual(['a', 3n]);
    expect(u.stmt).toMatchObject({ set: [{ value: { kind: 'param', index: 0 } }], where: { right: { kind: 'param', index: 1 } } });
  });
  it('is LRU-bounded', () => {
    const cache = new StatementCache(2);
    cache.parse('SELECT a FROM t1 WHERE id=1');
    cache.parse('SELECT a FROM t2 WHERE id=1');
    cache.parse('SELECT a FROM t1 WHERE id=1');
    cache.parse('SELECT a FROM t3 WHERE id=1');
    expect(cache.size).toBe(2);
  });
  it('timings: cached vs uncached point select', () => {
    const cache = new StatementCache();
    const n = 2000;
    let t0 = performance.now();
    for (let i = 0; i < n; i++) parseStatement(`SELECT c FROM sbtest1 WHERE id=${i}`);
    const uncached = ((performance.now() - t0) * 1000) / n;
    cache.parse('SELECT c FROM sbtest1 WHERE id=0');
    t0 = performance.now();
    for (let i = 0; i < n; i++) cache.parse(`SELECT c FROM sbtest1 WHERE id=${i}`);
    const cached = ((performance.now() - t0) * 1000) / n;
    console.log(`point select: uncached ${uncached.toFixed(1)} µs, cached ${cached.toFixed(1)} µs`);
    expect(cached).toBeLessThan(uncached);
  });
});
