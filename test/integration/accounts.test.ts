/**
 * Accounts end to end with mysql2: logins as different users (1045 with MySQL's exact text),
 * 1142 / 1044 / 1227 denials, grants and revokes applying to the next statement of open
 * sessions (also across two SQL nodes sharing etcd), SHOW GRANTS, the root password taken from
 * --initial-password on the first start only, and no password ever reaching the logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type RunningNode } from '../../src/cli/index.js';
import { sharedEtcdUrl } from '../helpers/etcd.js';
import { backends, REPO_ROOT, removeDir, tempDir } from '../helpers/node.js';

const PASSWORDS = ['first-root-pw', 'second-root-pw', 'app-secret-1', 'app-secret-2', 'ro-secret-3'];

interface Server {
  readonly port: number;
  readonly logs: () => string;
  stop(): Promise<void>;
}

/** `node bin/shale.js serve` (built dist/) on a free port, keeping everything it writes to stderr. */
async function serve(dataDir: string, args: readonly string[]): Promise<Server> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin/shale.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'debug', '--slow-query-ms', '0', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /"event":"listening".*?"port":(\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`shale exited with ${code}: ${out}`));
    });
  });
  return {
    port,
    logs: () => out,
    async stop() {
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function connect(port: number, user: string, password: string, database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port, user, password, ...(database ? { database } : {}) });
}

async function failure(p: Promise<unknown>): Promise<{ errno: number | undefined; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { errno?: number; message: string };
    return { errno: e.errno, message: e.message };
  }
  throw new Error('expected an error');
}

describe('accounts over the MySQL protocol', () => {
  const dataDir = tempDir('accounts');
  let server: Server;
  const logs: string[] = [];

  beforeAll(async () => {
    server = await serve(dataDir, ['--initial-password', PASSWORDS[0]!]);
  });
  afterAll(async () => {
    await server?.stop();
    removeDir(dataDir);
  });

  it('root logs in with the initial password; wrong or missing passwords get 1045', async () => {
    const root = await connect(server.port, 'root', PASSWORDS[0]!);
    await root.end();
    expect(await failure(connect(server.port, 'root', 'wrong'))).toEqual({
      errno: 1045,
      message: "Access denied for user 'root'@'127.0.0.1' (using password: YES)",
    });
    expect(await failure(connect(server.port, 'root', ''))).toEqual({
      errno: 1045,
      message: "Access denied for user 'root'@'127.0.0.1' (using password: NO)",
    });
    expect((await failure(connect(server.port, 'nobody', 'x'))).errno).toBe(1045);
  });

  it('enforces privileges and applies GRANT / REVOKE to the next statement', async () => {
    const root = await connect(server.port, 'root', PASSWORDS[0]!);
    await root.query('CREATE DATABASE shop');
    await root.query('CREATE TABLE shop.items (id INT PRIMARY KEY, name VARCHAR(20))');
    await root.query("INSERT INTO shop.items VALUES (1, 'a')");
    await root.query(`CREATE USER 'app'@'%' IDENTIFIED BY '${PASSWORDS[2]!}'`);
    expect(await failure(connect(server.port, 'app', 'nope'))).toEqual({
      errno: 1045,
      message: "Access denied for user 'app'@'127.0.0.1' (using password: YES)",
    });
    expect(await failure(connect(server.port, 'app', PASSWORDS[2]!, 'shop'))).toEqual({
      errno: 1044,
      message: "Access denied for user 'app'@'%' to database 'shop'",
    });
    const app = await connect(server.port, 'app', PASSWORDS[2]!);
    expect(await failure(app.query('SELECT * FROM shop.items'))).toEqual({
      errno: 1142,
      message: "SELECT command denied to user 'app'@'127.0.0.1' for table 'items'",
    });
    expect(await failure(app.execute('SELECT * FROM shop.items WHERE id = ?', [1]))).toMatchObject({ errno: 1142 });
    expect(await failure(app.query('USE shop'))).toEqual({ errno: 1044, message: "Access denied for user 'app'@'%' to database 'shop'" });
    expect(await failure(app.query("CREATE USER 'x'"))).toEqual({
      errno: 1227,
      message: 'Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation',
    });
    const [dbs] = await app.query('SHOW DATABASES');
    expect(dbs).toEqual([{ Database: 'information_schema' }]);

    await root.query('GRANT SELECT ON shop.* TO app');
    const [rows] = await app.query('SELECT name FROM shop.items');
    expect(rows).toEqual([{ name: 'a' }]);
    const [prepared] = await app.execute('SELECT name FROM shop.items WHERE id = ?', [1]);
    expect(prepared).toEqual([{ name: 'a' }]);
    await app.query('USE shop');
    expect(await failure(app.query("INSERT INTO items VALUES (2, 'b')"))).toEqual({
      errno: 1142,
      message: "INSERT command denied to user 'app'@'127.0.0.1' for table 'items'",
    });
    const [grants] = await app.query('SHOW GRANTS');
    expect(grants).toEqual([
      { 'Grants for app@%': 'GRANT USAGE ON *.* TO `app`@`%`' },
      { 'Grants for app@%': 'GRANT SELECT ON `shop`.* TO `app`@`%`' },
    ]);

    await root.query('REVOKE SELECT ON shop.* FROM app');
    expect(await failure(app.query('SELECT name FROM items'))).toMatchObject({ errno: 1142 });
    await app.end();
    // COM_CHANGE_USER checks the database too (and, as in MySQL, the failed change closes the connection).
    const other = await connect(server.port, 'app', PASSWORDS[2]!);
    expect(await failure(other.changeUser({ database: 'shop' }))).toMatchObject({ errno: 1044 });
    other.destroy();
    await root.end();
  });

  it('changes passwords: SET PASSWORD for oneself, ALTER USER by root', async () => {
    const app = await connect(server.port, 'app', PASSWORDS[2]!);
    await app.query(`SET PASSWORD = '${PASSWORDS[3]!}'`);
    await app.end();
    expect((await failure(connect(server.port, 'app', PASSWORDS[2]!))).errno).toBe(1045);
    const again = await connect(server.port, 'app', PASSWORDS[3]!);
    await again.end();
    const root = await connect(server.port, 'root', PASSWORDS[0]!);
    await root.query(`CREATE USER ro IDENTIFIED BY 'tmp'`);
    await root.execute(`ALTER USER ro IDENTIFIED BY '${PASSWORDS[4]!}'`);
    await root.end();
    const ro = await connect(server.port, 'ro', PASSWORDS[4]!);
    expect(await failure(ro.query('SET GLOBAL max_connections = 5'))).toMatchObject({ errno: 1227 });
    await ro.end();
  });

  it('keeps the stored root password on later starts and never logs passwords', async () => {
    logs.push(server.logs());
    await server.stop();
    server = await serve(dataDir, ['--initial-password', PASSWORDS[1]!]);
    expect((await failure(connect(server.port, 'root', PASSWORDS[1]!))).errno).toBe(1045);
    const root = await connect(server.port, 'root', PASSWORDS[0]!);
    const [users] = await root.query("SHOW GRANTS FOR 'app'@'%'");
    expect(users).toEqual([{ 'Grants for app@%': 'GRANT USAGE ON *.* TO `app`@`%`' }]);
    await root.end();
    const app = await connect(server.port, 'app', PASSWORDS[3]!);
    await app.end();
    logs.push(server.logs());
    const all = logs.join('\n');
    expect(all).toContain('slow-query');
    for (const pw of PASSWORDS) expect(all).not.toContain(pw);
  });
});

describe.runIf(backends().includes('etcd'))('accounts shared by two SQL nodes on etcd', () => {
  let a: RunningNode;
  let b: RunningNode;

  beforeAll(async () => {
    const store = sharedEtcdUrl();
    const logger = pino({ level: process.env['SHALE_TEST_LOG'] ?? 'silent' });
    a = await startNode({ host: '127.0.0.1', port: 0, store, logger, rootPassword: 'etcd-root' });
    b = await startNode({ host: '127.0.0.1', port: 0, store, logger, rootPassword: 'ignored-on-second-node' });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('an account and its grants made on one node apply on the other', async () => {
    expect((await failure(connect(b.port, 'root', 'ignored-on-second-node'))).errno).toBe(1045);
    const rootA = await connect(a.port, 'root', 'etcd-root');
    await rootA.query('CREATE DATABASE edb');
    await rootA.query('CREATE TABLE edb.t (id INT PRIMARY KEY)');
    await rootA.query("CREATE USER eu IDENTIFIED BY 'eu-pw'");
    const onB = await connect(b.port, 'eu', 'eu-pw');
    expect(await failure(onB.query('SELECT * FROM edb.t'))).toMatchObject({ errno: 1142 });
    await rootA.query('GRANT SELECT ON edb.t TO eu');
    const [rows] = await onB.query('SELECT COUNT(*) AS n FROM edb.t');
    expect(rows).toEqual([{ n: 0 }]);
    await rootA.query('REVOKE SELECT ON edb.t FROM eu');
    expect(await failure(onB.query('SELECT * FROM edb.t'))).toMatchObject({ errno: 1142 });
    await onB.end();
    await rootA.end();
  });
});
