import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/sql/session/index.js';
import { columnNames, errnoOf, openTestEngine, SBTEST_DDL, textRows, type TestEngine } from './session-helpers.js';

let t: TestEngine;
let s: Session;

beforeAll(async () => {
  t = await openTestEngine();
  s = await t.open();
  await s.query('CREATE DATABASE sbtest');
  await s.query('USE sbtest');
  await s.query(SBTEST_DDL);
  await s.query('CREATE INDEX k_1 ON sbtest1(k)');
  await s.query("INSERT INTO sbtest1 (k, c, pad) VALUES (1, 'a', 'b'), (2, 'c', 'd')");
});
afterAll(async () => {
  await s.close();
  await t.close();
});

const EXPECTED_CREATE = [
  'CREATE TABLE `sbtest1` (',
  '  `id` int NOT NULL AUTO_INCREMENT,',
  "  `k` int NOT NULL DEFAULT '0',",
  "  `c` char(120) NOT NULL DEFAULT '',",
  "  `pad` char(60) NOT NULL DEFAULT '',",
  '  PRIMARY KEY (`id`),',
  '  KEY `k_1` (`k`)',
  ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci',
].join('\n');

describe('SHOW on a sysbench table', () => {
  it('SHOW DATABASES includes information_schema', async () => {
    const r = await s.query('SHOW DATABASES');
    expect(columnNames(r)).toEqual(['Database']);
    expect(textRows(r)).toEqual(expect.arrayContaining([['information_schema'], ['sbtest']]));
    expect(textRows(await s.query("SHOW DATABASES LIKE 'sb%'"))).toEqual([['sbtest']]);
  });

  it('SHOW [FULL] TABLES with LIKE and WHERE', async () => {
    const r = await s.query('SHOW TABLES');
    expect(columnNames(r)).toEqual(['Tables_in_sbtest']);
    expect(textRows(r)).toEqual([['sbtest1']]);
    const full = await s.query('SHOW FULL TABLES');
    expect(columnNames(full)).toEqual(['Tables_in_sbtest', 'Table_type']);
    expect(textRows(full)).toEqual([['sbtest1', 'BASE TABLE']]);
    expect(textRows(await s.query("SHOW TABLES LIKE 'nothing%'"))).toEqual([]);
    expect(textRows(await s.query("SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'"))).toHaveLength(1);
  });

  it('SHOW COLUMNS / DESCRIBE / SHOW FULL COLUMNS', async () => {
    const r = await s.query('SHOW COLUMNS FROM sbtest1');
    expect(columnNames(r)).toEqual(['Field', 'Type', 'Null', 'Key', 'Default', 'Extra']);
    expect(textRows(r)).toEqual([
      ['id', 'int', 'NO', 'PRI', null, 'auto_increment'],
      ['k', 'int', 'NO', 'MUL', '0', ''],
      ['c', 'char(120)', 'NO', '', '', ''],
      ['pad', 'char(60)', 'NO', '', '', ''],
    ]);
    expect(textRows(await s.query('DESCRIBE sbtest1'))).toEqual(textRows(r));
    const full = await s.query('SHOW FULL COLUMNS FROM `sbtest1`');
    expect(columnNames(full)).toEqual(['Field', 'Type', 'Collation', 'Null', 'Key', 'Default', 'Extra', 'Privileges', 'Comment']);
    expect(textRows(full)[2]?.[2]).toBe('utf8mb4_0900_ai_ci');
    expect(textRows(await s.query("SHOW FULL FIELDS FROM sbtest1 WHERE Field = 'k'"))).toHaveLength(1);
    expect(await errnoOf(s.query('SHOW COLUMNS FROM nope'))).toBe(1146);
  });

  it('SHOW INDEX', async () => {
    const r = await s.query('SHOW INDEX FROM sbtest1');
    expect(columnNames(r)).toEqual([
      'Table', 'Non_unique', 'Key_name', 'Seq_in_index', 'Column_name', 'Collation', 'Cardinality', 'Sub_part',
      'Packed', 'Null', 'Index_type', 'Comment', 'Index_comment', 'Visible', 'Expression',
    ]);
    expect(textRows(r)).toEqual([
      ['sbtest1', '0', 'PRIMARY', '1', 'id', 'A', '2', null, null, '', 'BTREE', '', '', 'YES', null],
      ['sbtest1', '1', 'k_1', '1', 'k', 'A', '2', null, null, '', 'BTREE', '', '', 'YES', null],
    ]);
  });

  it('SHOW CREATE TABLE is MySQL 8 text and re-executable', async () => {
    const r = await s.query('SHOW CREATE TABLE sbtest1');
    expect(columnNames(r)).toEqual(['Table', 'Create Table']);
    const text = textRows(r)[0]?.[1] ?? '';
    // AUTO_INCREMENT=n shows the next id (two rows inserted), as MySQL does. It is estimated from
    // the stored rows, so the empty copy shows none (MySQL would show its start, 3).
    const withNext = EXPECTED_CREATE.replace('ENGINE=InnoDB ', 'ENGINE=InnoDB AUTO_INCREMENT=3 ');
    expect(text).toBe(withNext);
    await s.query('CREATE DATABASE copydb');
    await s.query('USE copydb');
    await s.query(text);
    const again = textRows(await s.query('SHOW CREATE TABLE sbtest1'))[0]?.[1];
    expect(again).toBe(EXPECTED_CREATE);
    await s.query('USE sbtest');
  });

  it('SHOW CREATE TABLE keeps defaults, NULLs and unique keys executable', async () => {
    await s.query(
      "CREATE TABLE misc (id BIGINT UNSIGNED NOT NULL, price DECIMAL(10,2) DEFAULT 2.5, note VARCHAR(10) DEFAULT 'it''s', " +
        'created DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), flag TINYINT(1) DEFAULT NULL, body TEXT, ' +
        'PRIMARY KEY (id), UNIQUE KEY uq_note (note))',
    );
    const text = textRows(await s.query('SHOW CREATE TABLE misc'))[0]?.[1] ?? '';
    expect(text).toContain("`price` decimal(10,2) DEFAULT '2.50'");
    expect(text).toContain('`created` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)');
    expect(text).toContain('`flag` tinyint(1) DEFAULT NULL');
    expect(text).toContain('UNIQUE KEY `uq_note` (`note`)');
    await s.query('DROP TABLE misc');
    await s.query(text);
    expect(textRows(await s.query('SHOW CREATE TABLE misc'))[0]?.[1]).toBe(text);
    const cols = textRows(await s.query('SHOW COLUMNS FROM misc'));
    expect(cols[3]).toEqual(['created', 'datetime(6)', 'NO', '', 'CURRENT_TIMESTAMP(6)', 'DEFAULT_GENERATED']);
    expect(cols[2]?.[3]).toBe('UNI');
  });

  it('SHOW CREATE DATABASE, VARIABLES, STATUS, ENGINES, COLLATION, CHARACTER SET', async () => {
    const db = await s.query('SHOW CREATE DATABASE sbtest');
    expect(columnNames(db)).toEqual(['Database', 'Create Database']);
    expect(textRows(db)[0]?.[1]).toContain('CREATE DATABASE `sbtest`');
    const vars = await s.query("SHOW VARIABLES LIKE 'auto%'");
    expect(columnNames(vars)).toEqual(['Variable_name', 'Value']);
    expect(textRows(vars)).toEqual([['auto_increment_increment', '1'], ['auto_increment_offset', '1'], ['autocommit', 'ON']]);
    expect(textRows(await s.query("SHOW GLOBAL VARIABLES WHERE Variable_name = 'max_connections'"))).toEqual([['max_connections', '151']]);
    expect(textRows(await s.query("SHOW STATUS LIKE 'Uptime'"))).toHaveLength(1);
    expect(textRows(await s.query('SHOW ENGINES'))[0]?.slice(0, 2)).toEqual(['InnoDB', 'DEFAULT']);
    expect(columnNames(await s.query('SHOW COLLATION'))).toEqual(['Collation', 'Charset', 'Id', 'Default', 'Compiled', 'Sortlen', 'Pad_attribute']);
    expect(textRows(await s.query("SHOW CHARACTER SET LIKE 'utf8mb4'"))).toEqual([['utf8mb4', 'UTF-8 Unicode', 'utf8mb4_0900_ai_ci', '4']]);
  });

  it('SHOW TABLE STATUS and PROCESSLIST', async () => {
    const st = await s.query('SHOW TABLE STATUS');
    expect(columnNames(st).slice(0, 3)).toEqual(['Name', 'Engine', 'Version']);
    expect(textRows(st).map((r) => r[0])).toContain('sbtest1');
    const pl = await s.query('SHOW PROCESSLIST');
    expect(columnNames(pl)).toEqual(['Id', 'User', 'Host', 'db', 'Command', 'Time', 'State', 'Info']);
    const me = textRows(pl).find((r) => r[0] === String(s.connectionId));
    expect(me?.slice(1, 5)).toEqual(['root', '127.0.0.1', 'sbtest', 'Query']);
    expect(me?.[7]).toBe('SHOW PROCESSLIST');
  });

  it('PROCESSLIST shows a session as idle after its command ended, also after a parse error or a failed execute', async () => {
    const other = await t.open();
    try {
      const idle = async (): Promise<Array<string | null> | undefined> =>
        textRows(await s.query('SHOW PROCESSLIST')).find((r) => r[0] === String(other.connectionId))?.slice(4);
      await other.query('SELECT 1');
      expect(await idle()).toEqual(['Sleep', '0', '', null]);
      expect(await errnoOf(other.query('SELEKT 1'))).toBe(1064);
      expect(await idle()).toEqual(['Sleep', '0', '', null]);
      const st = await other.prepare('SELECT * FROM no_such_table_yet WHERE id = ?').catch(() => undefined);
      expect(st).toBeUndefined();
      const ok = await other.prepare('SELECT c FROM sbtest.sbtest1 WHERE id = ?');
      expect(await errnoOf(ok.execute([]))).toBe(1210);
      await ok.execute([1n]);
      expect(await idle()).toEqual(['Sleep', '0', '', null]);
    } finally {
      await other.close();
    }
  });

  it('SHOW WARNINGS / ERRORS report the last statement', async () => {
    expect(await errnoOf(s.query('SELECT * FROM no_such_table'))).toBe(1146);
    const w = await s.query('SHOW WARNINGS');
    expect(columnNames(w)).toEqual(['Level', 'Code', 'Message']);
    expect(textRows(w)).toEqual([['Error', '1146', "Table 'sbtest.no_such_table' doesn't exist"]]);
    expect(textRows(await s.query('SHOW ERRORS'))).toHaveLength(1);
    expect(await (async () => textRows(await s.query('SELECT @@error_count'))[0]?.[0])()).toBe('1');
    await s.query('SELECT 1 FROM sbtest1 LIMIT 1');
    expect(textRows(await s.query('SHOW WARNINGS'))).toEqual([]);
  });
});
