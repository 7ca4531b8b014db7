/**
 * Dump round trip: a database built in ShaleDB is dumped with `mariadb-dump` (Debian
 * mariadb-client, default options plus --hex-blob), loaded with the `mariadb` client into a fresh
 * ShaleDB database and into a private MariaDB started here, and every table must read back the
 * same in all three. Skipped (with a message) when mariadb-dump or mariadbd is not installed.
 * A second dump of t_blob without --hex-blob (BLOB bytes raw inside string literals) must reload
 * the same: ShaleDB's statement text is binary-safe.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, REPO_ROOT, removeDir, startTestNode, type TestNode } from '../helpers/node.js';

const run = promisify(execFile);
const TOOLS = ['/usr/bin/mariadb-dump', '/usr/bin/mariadb', '/usr/sbin/mariadbd'];
const missing = TOOLS.filter((t) => !existsSync(t));
if (missing.length > 0) console.warn(`dump-roundtrip: skipped, not installed: ${missing.join(', ')}`);

// utf8mb4_bin: MariaDB 10.11 does not know MySQL 8's default utf8mb4_0900_ai_ci.
const SETUP = `
CREATE DATABASE rt DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
USE rt;
CREATE TABLE t_int (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, i TINYINT, s SMALLINT UNSIGNED, m MEDIUMINT,
  u INT UNSIGNED NOT NULL DEFAULT 0, b BIGINT, flag TINYINT(1) DEFAULT 1, KEY k_b (b));
INSERT INTO t_int (i, s, m, u, b) VALUES (-128, 65535, -8388608, 4294967295, -9223372036854775808),
  (127, 0, 8388607, 0, 9223372036854775807), (NULL, NULL, NULL, 7, NULL);
INSERT INTO t_int (id, i) VALUES (100, 5);
CREATE TABLE t_dec (id INT PRIMARY KEY, d DECIMAL(20,6), d0 DECIMAL(5,0), dbl DOUBLE, f FLOAT);
INSERT INTO t_dec VALUES (1, 12345678901234.123456, -99999, 1.5, 0.25), (2, -0.000001, 0, -2.25e10, -3), (3, NULL, NULL, NULL, NULL);
CREATE TABLE t_str (id INT PRIMARY KEY, c CHAR(10) NOT NULL DEFAULT '', v VARCHAR(200), t TEXT, mt MEDIUMTEXT,
  UNIQUE KEY u_v (v), KEY k_c (c));
INSERT INTO t_str VALUES (1, 'plain', 'it''s "quoted"', 'back\\\\slash', 'tab\\tand\\nnewline\\r\\n'),
  (2, 'ünï', 'emoji 😀 ü 中文', '', NULL), (3, '', NULL, NULL, 'x'),
  (4, 'z', 'semi;colon -- not a comment /* nor this */', 'NUL\\0byte', 'ctrl-z \\Z');
CREATE TABLE t_time (id INT PRIMARY KEY, d DATE, dt DATETIME, dt6 DATETIME(6), ts TIMESTAMP(3) NULL, tm TIME, tm2 TIME(2), y YEAR);
INSERT INTO t_time VALUES (1, '2024-02-29', '1999-12-31 23:59:59', '2020-01-01 00:00:00.000001', '2021-06-15 12:30:45.678',
  '-838:59:59', '12:34:56.78', 2155), (2, '1000-01-01', '9999-12-31 23:59:59', '2000-01-01 12:00:00.5', NULL, '00:00:00', NULL, 1901),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE t_blob (id INT PRIMARY KEY, bl BLOB, vb VARBINARY(16), bn BINARY(4), lb LONGBLOB);
INSERT INTO t_blob VALUES (1, X'00010203FF7F80', X'DEADBEEF', X'01', X'27225C0A0D1A00'), (2, '', '', X'00000000', NULL),
  (3, NULL, NULL, NULL, REPEAT('ab', 5000));
CREATE TABLE t_nopk (a INT, b VARCHAR(20));
INSERT INTO t_nopk VALUES (1, 'one'), (1, 'one'), (NULL, NULL), (2, 'two');
CREATE TABLE t_comp (a VARCHAR(10) NOT NULL, b INT NOT NULL, note VARCHAR(30) DEFAULT 'n/a', PRIMARY KEY (a, b));
INSERT INTO t_comp (a, b) VALUES ('x', 2), ('x', 1), ('y', 0);
CREATE TABLE t_parent (id INT PRIMARY KEY, name VARCHAR(20));
CREATE TABLE t_child (id INT PRIMARY KEY, parent_id INT, CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES t_parent (id));
INSERT INTO t_parent VALUES (1, 'p1'), (2, 'p2');
INSERT INTO t_child VALUES (10, 1), (11, 2), (12, NULL);
`;

/** Each table with the ORDER BY that makes its rows comparable. */
const TABLES: ReadonlyArray<readonly [string, string]> = [
  ['t_int', 'id'], ['t_dec', 'id'], ['t_str', 'id'], ['t_time', 'id'], ['t_blob', 'id'], ['t_nopk', 'a, b'],
  ['t_comp', 'a, b'], ['t_parent', 'id'], ['t_child', 'id'],
];

function freePort(from: number, to: number): Promise<number> {
  const tryPort = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      if (port > to) return reject(new Error(`no free port in ${from}-${to}`));
      const srv = createServer();
      srv.once('error', () => resolve(tryPort(port + 1)));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(port)));
    });
  return tryPort(from);
}

/** The `mariadb` client in batch mode; stdout as latin1 so raw bytes compare exactly. */
async function client(port: number, args: string[]): Promise<string> {
  const { stdout } = await run('mariadb', ['-h127.0.0.1', `-P${port}`, '-uroot', '--skip-ssl', '--default-character-set=utf8mb4', ...args], {
    encoding: 'latin1',
    maxBuffer: 64 << 20,
  });
  return stdout;
}

/** `mariadb db < file`, failing on the first statement that fails. */
async function load(port: number, db: string, file: string): Promise<void> {
  await run('bash', ['-c', `mariadb -h127.0.0.1 -P${port} -uroot --skip-ssl --default-character-set=utf8mb4 ${db} < '${file}'`]);
}

function tableText(port: number, db: string, table: string, orderBy: string): Promise<string> {
  return client(port, ['-B', '-e', `SET time_zone = '+00:00'; SELECT * FROM \`${db}\`.\`${table}\` ORDER BY ${orderBy}`]);
}

describe.skipIf(missing.length > 0)('mariadb-dump round trip', () => {
  const work = mkdtempSync(join(tmpdir(), 'shale-dump-'));
  const mariaDir = join(work, 'mariadb');
  let mariaPort = 0;

  beforeAll(async () => {
    mariaPort = await freePort(45760, 45799);
    await run('bash', [join(REPO_ROOT, 'sysbench/mariadb.sh'), 'start', mariaDir, String(mariaPort)]);
  }, 120_000);

  afterAll(async () => {
    await run('bash', [join(REPO_ROOT, 'sysbench/mariadb.sh'), 'stop', mariaDir]).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  for (const backend of backends()) {
    describe(`on the ${backend} store`, () => {
      let node: TestNode;
      const dumpFile = join(work, `${backend}.sql`);
      const target = `rt_${backend}`;

      beforeAll(async () => {
        node = await startTestNode(backend);
        await client(node.port, ['-e', SETUP]);
      }, 60_000);

      afterAll(async () => {
        await node?.stop();
        if (node) removeDir(node.dataDir);
      });

      it('dumps the database with mariadb-dump without errors', async () => {
        const { stdout, stderr } = await run(
          'mariadb-dump',
          ['-h127.0.0.1', `-P${node.port}`, '-uroot', '--skip-ssl', '--hex-blob', 'rt'],
          { encoding: 'latin1', maxBuffer: 64 << 20 },
        );
        expect(stderr).toBe('');
        expect(stdout).toContain('CREATE TABLE `t_child`');
        expect(stdout).toContain('FOREIGN KEY (`parent_id`) REFERENCES `t_parent` (`id`)');
        expect(stdout).toContain('LOCK TABLES `t_int` WRITE');
        expect(stdout).toMatch(/-- Dump completed/);
        writeFileSync(dumpFile, stdout, 'latin1');
      }, 60_000);

      it('loads the dump into a fresh ShaleDB database and into MariaDB', async () => {
        await client(node.port, ['-e', `CREATE DATABASE ${target}`]);
        await load(node.port, target, dumpFile);
        await client(mariaPort, ['-e', `DROP DATABASE IF EXISTS ${target}; CREATE DATABASE ${target}`]);
        await load(mariaPort, target, dumpFile);
      }, 60_000);

      it('reads every table back the same in all three', async () => {
        for (const [table, orderBy] of TABLES) {
          const source = await tableText(node.port, 'rt', table, orderBy);
          expect(source.split('\n').length, table).toBeGreaterThan(2);
          expect(await tableText(node.port, target, table, orderBy), `${table} reloaded in ShaleDB`).toBe(source);
          expect(await tableText(mariaPort, target, table, orderBy), `${table} loaded in MariaDB`).toBe(source);
        }
      }, 60_000);

      it('round-trips t_blob without --hex-blob (raw bytes inside string literals)', async () => {
        const { stdout } = await run('mariadb-dump', ['-h127.0.0.1', `-P${node.port}`, '-uroot', '--skip-ssl', 'rt', 't_blob'], {
          encoding: 'latin1',
          maxBuffer: 64 << 20,
        });
        expect(stdout).toContain('\xFF\x7F\x80');
        const rawFile = join(work, `${backend}-raw.sql`);
        writeFileSync(rawFile, stdout, 'latin1');
        await client(node.port, ['-e', `CREATE DATABASE ${target}_raw`]);
        await load(node.port, `${target}_raw`, rawFile);
        const source = await tableText(node.port, 'rt', 't_blob', 'id');
        expect(await tableText(node.port, `${target}_raw`, 't_blob', 'id')).toBe(source);
      }, 60_000);

      it('keeps the schema: columns, indexes and constraints as information_schema shows them', async () => {
        const describe = (db: string): Promise<string> =>
          client(node.port, ['-B', '-e', [
            `SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, COLUMN_TYPE, COLUMN_KEY, EXTRA`,
            `FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '${db}' ORDER BY TABLE_NAME, ORDINAL_POSITION;`,
            `SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS`,
            `WHERE TABLE_SCHEMA = '${db}' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX;`,
            `SELECT TABLE_NAME, CONSTRAINT_NAME, CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS`,
            `WHERE TABLE_SCHEMA = '${db}' ORDER BY TABLE_NAME, CONSTRAINT_NAME;`,
            `SELECT TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE`,
            `WHERE TABLE_SCHEMA = '${db}' AND REFERENCED_TABLE_NAME IS NOT NULL ORDER BY TABLE_NAME`,
          ].join(' ')]);
        const source = await describe('rt');
        expect(source).toContain('t_child\tparent_id\tt_parent\tid');
        expect(await describe(target)).toBe(source);
      }, 60_000);

      it('continues AUTO_INCREMENT after the largest loaded id everywhere', async () => {
        for (const [port, db] of [[node.port, 'rt'], [node.port, target], [mariaPort, target]] as const) {
          const out = await client(port, ['-B', '-N', db, '-e', 'INSERT INTO t_int (i) VALUES (9); SELECT MAX(id) FROM t_int']);
          expect(out.trim(), `${port}/${db}`).toBe('101');
        }
      }, 60_000);
    });
  }
});
