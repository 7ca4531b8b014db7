/**
 * `shale import` (built dist/) against real SQL nodes: a mariadb-dump file of a MariaDB database
 * gives the same query results as the source server, a mysqldump 8.0-style file loads into
 * --database, failures stop (or not) with the statement's number and line, and a mariadb-dump of
 * a ShaleDB database round-trips once the server can answer mariadb-dump's queries.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeDir, startTestNode, tempDir, type TestNode } from '../helpers/node.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/import');
const run = promisify(execFile);

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function shaleImport(args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), 'import', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs SQL through the mysql CLI in batch mode (tab-separated output, like the expected file). */
async function mysqlBatch(port: number, database: string, sql: string): Promise<string> {
  const child = spawn('mysql', ['--default-character-set=utf8mb4', '-B', '-h127.0.0.1', `-P${port}`, '-uroot', database], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end(sql);
  const code = await new Promise<number | null>((r) => child.once('close', r));
  if (code !== 0) throw new Error(`mysql exited with ${code}: ${err}`);
  return out;
}

describe('shale import', () => {
  let node: TestNode;
  let dir: string;

  const sql = async (statements: string, database?: string): Promise<unknown[]> => {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', multipleStatements: true, ...(database ? { database } : {}) });
    try {
      const [rows] = await conn.query(statements);
      return rows as unknown[];
    } finally {
      await conn.end();
    }
  };

  beforeAll(async () => {
    dir = tempDir('import');
    node = await startTestNode('embedded', join(dir, 'data'));
  });

  afterAll(async () => {
    await node?.stop();
    if (dir) removeDir(dir);
  });

  it('loads a mariadb-dump file and answers like the MariaDB it was dumped from', async () => {
    const r = await shaleImport([join(FIXTURES, 'shop-mariadb.sql'), '--port', String(node.port)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Imported: .*shop-mariadb\.sql into mysql:\/\/root@127\.0\.0\.1:\d+\n {2}statements {2}82 succeeded, 0 failed\n {2}rows {8}710 affected\n/);
    const checks = readFileSync(join(FIXTURES, 'shop-checks.sql'), 'utf8');
    const expected = readFileSync(join(FIXTURES, 'shop-mariadb.expected.tsv'), 'utf8');
    expect(await mysqlBatch(node.port, 'shop', checks)).toBe(expected);
  });

  it('loads a mysqldump 8.0 file without CREATE DATABASE into --database', async () => {
    await sql('CREATE DATABASE app');
    const r = await shaleImport([join(FIXTURES, 'mysql80-app.sql'), '--url', `mysql://root@127.0.0.1:${node.port}/app`, '--no-progress']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('38 succeeded, 0 failed');
    const out = await mysqlBatch(node.port, 'app', 'SELECT id, login, created_at, updated_at, HEX(token), karma, active FROM users ORDER BY id; SELECT id, user_id, title, HEX(body), published FROM posts ORDER BY id;');
    expect(out.split('\n').slice(0, 3)).toEqual([
      'id\tlogin\tcreated_at\tupdated_at\tHEX(token)\tkarma\tactive',
      '1\tada\t2024-05-01 09:00:00\t2024-05-01 09:30:00\t746F6B00656E\t12.50\t1',
      "2\tO'Brien\t2024-05-01 09:00:01\tNULL\tNULL\t-3.25\t0",
    ]);
    const posts = await sql('SELECT title, body FROM posts ORDER BY id', 'app');
    expect(posts).toEqual([
      { title: 'Hello; world', body: "First post.\nSecond line with a 'quote' and a \\ backslash." },
      { title: '/* not a comment */', body: '-- not a comment either; # nor this' },
      { title: 'Zoë ✓', body: 'DELIMITER ;;\r\nstill data' },
    ]);
  });

  const FAILING = ['CREATE DATABASE imp_err;', 'USE imp_err;', 'CREATE TABLE t (a INT PRIMARY KEY);', 'INSERT INTO t VALUES (1);', '', 'INSERT INTO nope', '  VALUES (2);', 'INSERT INTO t VALUES (3);', ''].join('\n');

  it('stops at the first failed statement with its number, line, error and excerpt (exit 1)', async () => {
    const file = join(dir, 'failing.sql');
    writeFileSync(file, FAILING);
    const r = await shaleImport([file, '--port', String(node.port)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error: statement 5 (line 6): ERROR 1146 (42S02): Table 'imp_err.nope' doesn't exist\n    INSERT INTO nope VALUES (2)\n");
    expect(r.stdout).toContain('4 succeeded, 1 failed');
    expect(await sql('SELECT a FROM imp_err.t ORDER BY a')).toEqual([{ a: 1 }]);
  });

  it('--continue-on-error runs the rest and reports every failure (exit 1)', async () => {
    await sql('DROP DATABASE imp_err');
    const file = join(dir, 'failing.sql');
    const r = await shaleImport([file, '--port', String(node.port), '--continue-on-error']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: statement 5 (line 6): ERROR 1146');
    expect(r.stdout).toContain('Imported with errors');
    expect(r.stdout).toContain('5 succeeded, 1 failed');
    expect(r.stdout).toContain('errors      ER_NO_SUCH_TABLE (1146) ×1');
    expect(await sql('SELECT a FROM imp_err.t ORDER BY a')).toEqual([{ a: 1 }, { a: 3 }]);
  });

  it('exits with 2 for a missing file, a refused connection and bad flags', async () => {
    const missing = await shaleImport([join(dir, 'nope.sql'), '--port', String(node.port)]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toMatch(/^error: cannot read .*nope\.sql: ENOENT/);
    const refused = await shaleImport([join(FIXTURES, 'mysql80-app.sql'), '--port', '1']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/^error: cannot connect to mysql:\/\/root@127\.0\.0\.1:1: .*ECONNREFUSED/);
    const usage = await shaleImport([join(FIXTURES, 'mysql80-app.sql'), '--port', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('must be a port number');
  });

  // mysqldump without --hex-blob writes binary columns as raw bytes inside string literals;
  // `shale import` sends the file's bytes unchanged and the server keeps them (surrogate escapes).
  it('keeps raw non-UTF-8 bytes of a binary string literal', async () => {
    const file = join(dir, 'raw-bytes.sql');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from("CREATE DATABASE raw_b;\nCREATE TABLE raw_b.b (k INT PRIMARY KEY, v VARBINARY(8));\nINSERT INTO raw_b.b VALUES (1, '"), Buffer.from([0x00, 0xff, 0x41]), Buffer.from("');\n")]),
    );
    const r = await shaleImport([file, '--port', String(node.port)]);
    expect(r.code).toBe(0);
    expect(await sql('SELECT HEX(v) AS h FROM raw_b.b')).toEqual([{ h: '00FF41' }]);
  });

  it('round-trips a mariadb-dump of a ShaleDB database', async () => {
    await sql(
      'CREATE DATABASE rt; USE rt; CREATE TABLE t (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, price DECIMAL(10,2), ' +
        "d DATE, dt DATETIME(3), b VARBINARY(8), UNIQUE KEY uk (name)); INSERT INTO t (name, price, d, dt, b) VALUES ('a;b', 1.5, '2024-01-02', " +
        "'2024-01-02 03:04:05.678', x'00ff27'), ('it''s', NULL, NULL, NULL, NULL)",
    );
    const dump = await run('mariadb-dump', ['-h127.0.0.1', `-P${node.port}`, '-uroot', '--skip-ssl', '--hex-blob', '--databases', 'rt'], {
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      (r) => ({ ok: true as const, text: r.stdout }),
      (e: { stderr?: string }) => ({ ok: false as const, text: e.stderr ?? String(e) }),
    );
    expect(dump.ok, dump.text).toBe(true);
    const before = await sql('SELECT id, name, price, d, dt, HEX(b) AS b FROM rt.t ORDER BY id');
    await sql('DROP DATABASE rt');
    const file = join(dir, 'rt.sql');
    writeFileSync(file, dump.text);
    const r = await shaleImport([file, '--port', String(node.port)]);
    expect(r.stdout).toContain('0 failed');
    expect(await sql('SELECT id, name, price, d, dt, HEX(b) AS b FROM rt.t ORDER BY id')).toEqual(before);
  });
});
