import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../../src/sql/parse/index.js';
import { hostMatches, matchAccount } from '../../../src/sql/session/account-match.js';
import { requirementsOf } from '../../../src/sql/session/privilege-requirements.js';
import type { StoredAccount } from '../../../src/catalog/index.js';

const req = (sql: string, db: string | null = 'd') => requirementsOf(parseStatement(sql).stmt, db);
const tables = (sql: string) => req(sql).map((r) => (r.kind === 'table' ? `${r.priv} ${r.db}.${r.table}` : r.kind));

describe('requirementsOf', () => {
  it('reads every table of joins, derived tables and subqueries', () => {
    expect(tables('SELECT * FROM a JOIN x.b ON a.id = b.id WHERE a.v IN (SELECT v FROM c)').sort()).toEqual([
      'SELECT d.a', 'SELECT d.c', 'SELECT x.b',
    ]);
    expect(tables('SELECT 1')).toEqual([]);
    expect(tables('SELECT * FROM information_schema.tables')).toEqual([]);
  });
  it('maps DML and DDL to MySQL privileges', () => {
    expect(tables('INSERT INTO t SELECT * FROM s')).toEqual(['INSERT d.t', 'SELECT d.s']);
    expect(tables('REPLACE INTO t VALUES (1)')).toEqual(['INSERT d.t', 'DELETE d.t']);
    expect(tables('INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE v = 2')).toEqual(['INSERT d.t', 'UPDATE d.t']);
    expect(tables('UPDATE t SET v = 1 WHERE id = 2')).toEqual(['UPDATE d.t']);
    expect(tables('DELETE FROM t')).toEqual(['DELETE d.t']);
    expect(tables('TRUNCATE TABLE t')).toEqual(['DROP d.t']);
    expect(tables('CREATE INDEX i ON t (v)')).toEqual(['INDEX d.t']);
    expect(tables('EXPLAIN SELECT * FROM t')).toEqual(['SELECT d.t']);
    expect(req('CREATE DATABASE n')).toEqual([{ kind: 'db', priv: 'CREATE', db: 'n' }]);
    expect(req('SHOW TABLES FROM n')).toEqual([{ kind: 'anyOnDb', db: 'n' }]);
    expect(req('SET GLOBAL max_connections = 1')).toEqual([{ kind: 'global', anyOf: ['SUPER', 'SYSTEM_VARIABLES_ADMIN'] }]);
    expect(req('SET SESSION sql_mode = DEFAULT')).toEqual([]);
    expect(req('BEGIN')).toEqual([]);
  });
  it('leaves unqualified tables without a current database to the 1046 of execution', () => {
    expect(req('SELECT * FROM t', null)).toEqual([]);
  });
});

describe('account matching', () => {
  const acc = (user: string, host: string): StoredAccount => ({
    user, host, nativeHash: new Uint8Array(0), sha2Hash: new Uint8Array(0), global: [], dbs: [], tables: [],
  });
  it('matches % and _ patterns, localhost for loopback, case-insensitively', () => {
    expect(hostMatches('%', '10.1.2.3')).toBe(true);
    expect(hostMatches('10.1.%', '10.1.2.3')).toBe(true);
    expect(hostMatches('10.1.%', '10.10.2.3')).toBe(false);
    expect(hostMatches('10.1.2._', '10.1.2.3')).toBe(true);
    expect(hostMatches('localhost', '127.0.0.1')).toBe(true);
    expect(hostMatches('DB.example', 'db.example')).toBe(true);
    expect(hostMatches('10.1.2.3', '10.1.2.30')).toBe(false);
  });
  it('prefers the most specific host', () => {
    const accounts = [acc('u', '%'), acc('u', '10.%'), acc('u', '10.0.0.1'), acc('v', '10.0.0.1')];
    expect(matchAccount(accounts, 'u', '10.0.0.1')?.host).toBe('10.0.0.1');
    expect(matchAccount(accounts, 'u', '10.0.0.2')?.host).toBe('10.%');
    expect(matchAccount(accounts, 'u', '192.168.0.1')?.host).toBe('%');
    expect(matchAccount(accounts, 'v', '192.168.0.1')).toBeUndefined();
  });
});
