import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnNames, errnoOf, openTestEngine, scalar, textRows, type TestEngine } from './session-helpers.js';

let t: TestEngine;

beforeAll(async () => {
  t = await openTestEngine('secret');
});
afterAll(async () => {
  await t.close();
});

describe('engine', () => {
  it('reports the server version and root credentials as hashes only', async () => {
    expect(t.engine.serverVersion).toMatch(/^8\.0\.11-ShaleDB-\d+\.\d+\.\d+/);
    const auth = await t.engine.lookupUser('root', '10.1.2.3');
    expect(auth?.nativeHash.length).toBe(20);
    expect(auth?.sha2Hash.length).toBe(32);
    expect(await t.engine.lookupUser('nobody', 'localhost')).toBeNull();
  });

  it('rejects an unknown handshake database with 1049', async () => {
    const err = await errnoOf(t.engine.openSession({ connectionId: 999, user: 'root', host: 'h', collationId: 45, foundRows: false, database: 'nope' }));
    expect(err).toBe(1049);
  });

  it('counts questions and threads', async () => {
    const s = await t.open();
    const before = t.engine.stats().questions;
    await s.query('SELECT 1');
    expect(t.engine.stats().questions).toBe(before + 1);
    expect(t.engine.stats().threads).toBeGreaterThanOrEqual(1);
    await s.close();
  });
});

describe('what clients send on connect', () => {
  it('answers the mysql CLI (auto-rehash, version comment, status)', async () => {
    const s = await t.open();
    await s.query('CREATE DATABASE clidb');
    await s.query('USE clidb');
    await s.query('CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20) DEFAULT \'x\')');
    expect(textRows(await s.query('show databases'))).toContainEqual(['clidb']);
    expect(textRows(await s.query('show tables'))).toEqual([['t']]);
    const fields = await s.fieldList('t');
    expect(fields.map((f) => [f.name, f.defaultText])).toEqual([['id', null], ['name', 'x']]);
    const vc = await s.query('select @@version_comment limit 1');
    expect(columnNames(vc)).toEqual(['@@version_comment']);
    expect(textRows(vc)).toEqual([['ShaleDB (MySQL-compatible)']]);
    expect(textRows(await s.query('select DATABASE(), USER() limit 1'))).toEqual([['clidb', 'root@127.0.0.1']]);
    const cs = await s.query('select @@character_set_client, @@character_set_connection, @@character_set_server, @@character_set_database limit 1');
    expect(textRows(cs)).toEqual([['utf8mb4', 'utf8mb4', 'utf8mb4', 'utf8mb4']]);
    await s.close();
  });

  it('answers the Connector/J variable query', async () => {
    const s = await t.open();
    const r = await s.query(
      'SELECT @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS character_set_client, ' +
        '@@collation_connection AS collation_connection, @@init_connect AS init_connect, @@interactive_timeout AS interactive_timeout, ' +
        '@@license AS license, @@lower_case_table_names AS lower_case_table_names, @@max_allowed_packet AS max_allowed_packet, ' +
        '@@net_write_timeout AS net_write_timeout, @@performance_schema AS performance_schema, @@sql_mode AS sql_mode, ' +
        '@@system_time_zone AS system_time_zone, @@time_zone AS time_zone, @@transaction_isolation AS transaction_isolation, ' +
        '@@wait_timeout AS wait_timeout',
    );
    expect(textRows(r)).toEqual([[
      '1', 'utf8mb4', 'utf8mb4_general_ci', '', '28800', 'Apache-2.0', '0', '67108864', '60', '0',
      'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION',
      'UTC', 'SYSTEM', 'REPEATABLE-READ', '28800',
    ]]);
    expect(await scalar(s, 'SELECT @@socket')).toBeNull();
    expect(await scalar(s, 'SELECT @@version')).toBe(t.engine.serverVersion);
    expect(await scalar(s, 'SELECT @@tx_isolation')).toBe('REPEATABLE-READ');
    expect(await errnoOf(s.query('SELECT @@no_such_var'))).toBe(1193);
    await s.close();
  });
});

describe('other statements', () => {
  it('KILL: 1317 for its own connection, OK for another, 1094 for an unknown id; no-ops return OK', async () => {
    const s = await t.open();
    const other = await t.open();
    expect(await errnoOf(s.query(`KILL QUERY ${s.connectionId}`))).toBe(1317);
    await s.query(`KILL QUERY ${other.connectionId}`);
    await s.query(`KILL CONNECTION ${other.connectionId}`);
    expect(await errnoOf(s.query('KILL 987654'))).toBe(1094);
    expect(await errnoOf(s.query(`KILL ${s.connectionId}`))).toBe(1317);
    await s.query('UNLOCK TABLES');
    await other.close();
    await s.close();
  });
});

describe('SET', () => {
  it('stores session values, DEFAULT restores, unknown is 1193', async () => {
    const s = await t.open();
    await s.query("SET time_zone = '+00:00'");
    expect(await scalar(s, 'SELECT @@time_zone')).toBe('+00:00');
    await s.query('SET SQL_SELECT_LIMIT=DEFAULT');
    expect(await scalar(s, 'SELECT @@sql_select_limit')).toBe('18446744073709551615');
    await s.query('SET net_write_timeout=600, tmp_table_size=1048576, max_heap_table_size=1048576');
    expect(await scalar(s, 'SELECT @@net_write_timeout')).toBe('600');
    await s.query('SET FOREIGN_KEY_CHECKS = 0');
    expect(await scalar(s, 'SELECT @@foreign_key_checks')).toBe('0');
    await s.query("SET sql_mode='TRADITIONAL'");
    expect(await scalar(s, 'SELECT @@sql_mode')).toContain('STRICT_ALL_TABLES');
    await s.query('SET character_set_results = NULL');
    expect(await scalar(s, 'SELECT @@character_set_results')).toBeNull();
    expect(await errnoOf(s.query('SET no_such_variable = 1'))).toBe(1193);
    expect(await errnoOf(s.query('SET autocommit = 5'))).toBe(1231);
    expect(await errnoOf(s.query("SET version = 'x'"))).toBe(1238);
    await s.close();
  });

  it('SET GLOBAL is seen by new sessions, not by open ones', async () => {
    const a = await t.open();
    await a.query('SET GLOBAL wait_timeout = 100');
    expect(await scalar(a, 'SELECT @@wait_timeout')).toBe('28800');
    expect(await scalar(a, 'SELECT @@global.wait_timeout')).toBe('100');
    const b = await t.open();
    expect(await scalar(b, 'SELECT @@wait_timeout')).toBe('100');
    await a.query('SET GLOBAL wait_timeout = DEFAULT');
    await a.close();
    await b.close();
  });

  it('SET NAMES and SET CHARACTER SET update the charset variables', async () => {
    const s = await t.open();
    await s.query('SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci');
    expect(textRows(await s.query('SELECT @@character_set_client, @@character_set_results, @@collation_connection'))).toEqual([
      ['utf8mb4', 'utf8mb4', 'utf8mb4_unicode_ci'],
    ]);
    await s.query('SET NAMES utf8');
    expect(await scalar(s, 'SELECT @@character_set_connection')).toBe('utf8mb3');
    await s.query('SET CHARACTER SET utf8mb4');
    expect(await scalar(s, 'SELECT @@character_set_client')).toBe('utf8mb4');
    expect(await errnoOf(s.query('SET NAMES klingon'))).toBe(1115);
    await s.close();
  });

  it('SET TRANSACTION accepts every isolation level and READ ONLY', async () => {
    const s = await t.open();
    for (const level of ['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE']) {
      await s.query(`SET SESSION TRANSACTION ISOLATION LEVEL ${level}`);
      expect(await scalar(s, 'SELECT @@transaction_isolation')).toBe(level.replace(' ', '-'));
      await s.query(`SET TRANSACTION ISOLATION LEVEL ${level}`);
    }
    await s.query("SET @@transaction_isolation = 'read-committed'");
    expect(await scalar(s, 'SELECT @@tx_isolation')).toBe('READ-COMMITTED');
    await s.query('SET TRANSACTION READ ONLY');
    await s.query('BEGIN');
    expect(await errnoOf(s.query('SET TRANSACTION READ WRITE'))).toBe(1568);
    await s.query('COMMIT');
    await s.close();
  });

  it('user variables evaluate expressions', async () => {
    const s = await t.open();
    await s.query("SET @a = 1 + 2, @b = CONCAT('x', 'y')");
    expect(textRows(await s.query('SELECT @a, @b, @unset'))).toEqual([['3', 'xy', null]]);
    await s.reset();
    expect(await scalar(s, 'SELECT @a')).toBeNull();
    await s.close();
  });
});
