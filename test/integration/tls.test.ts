/**
 * `shale serve --tls-cert --tls-key [--require-secure-transport]` (built dist/, child processes)
 * with mysql2 and the mysql (MariaDB) CLI: TLS sessions, certificate verification, both auth
 * plugins with a root password, require_secure_transport, a server without TLS, bad flags.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql, { type ConnectionOptions, type RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeDir, spawnNode, tempDir, type SpawnedNode } from '../helpers/node.js';
import { makeTestCerts, type TestCerts } from '../helpers/tls-certs.js';

const run = promisify(execFile);
const PASSWORD = 'tls-Secret-1';
let certs: TestCerts;

beforeAll(() => {
  certs = makeTestCerts();
});
afterAll(() => {
  if (certs) rmSync(certs.dir, { recursive: true, force: true });
});

/** Spawns a node with `args`; the root password comes from SHALE_ROOT_PASSWORD in its environment. */
async function startTlsNode(args: string[], password = PASSWORD): Promise<{ node: SpawnedNode; dataDir: string }> {
  const dataDir = tempDir('tls');
  process.env['SHALE_ROOT_PASSWORD'] = password;
  try {
    return { node: await spawnNode(dataDir, args), dataDir };
  } finally {
    delete process.env['SHALE_ROOT_PASSWORD'];
  }
}

function tlsArgs(): string[] {
  return ['--tls-cert', certs.cert, '--tls-key', certs.key];
}

async function one(opts: ConnectionOptions, sql: string): Promise<RowDataPacket> {
  const c = await mysql.createConnection({ host: '127.0.0.1', user: 'root', ...opts });
  try {
    const [rows] = await c.query<RowDataPacket[]>(sql);
    return rows[0] as RowDataPacket;
  } finally {
    await c.end();
  }
}

function cli(port: number, args: string[], password = PASSWORD): Promise<{ stdout: string; stderr: string }> {
  return run('mysql', ['-h127.0.0.1', `-P${port}`, '-uroot', `-p${password}`, ...args]);
}

function cliError(port: number, args: string[]): Promise<string> {
  return cli(port, args).then(
    () => 'no error',
    (e: { stderr: string }) => e.stderr,
  );
}

/** A TCP proxy that renames the greeting's auth plugin to caching_sha2_password (same length). */
async function sha2Proxy(port: number): Promise<{ port: number; close(): Promise<void> }> {
  const srv: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    let first = true;
    upstream.on('data', (c: Buffer) => {
      if (first) {
        first = false;
        const at = c.indexOf('mysql_native_password', 0, 'latin1');
        if (at >= 0) c = Buffer.from(c), c.write('caching_sha2_password', at, 'latin1');
      }
      client.write(c);
    });
    client.on('data', (c: Buffer) => upstream.write(c));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  return { port: typeof addr === 'object' && addr !== null ? addr.port : 0, close: () => new Promise((r) => srv.close(() => r())) };
}

describe('shale serve --tls-cert --tls-key', () => {
  let node: SpawnedNode;
  let dataDir: string;
  let base: ConnectionOptions;

  beforeAll(async () => {
    ({ node, dataDir } = await startTlsNode(tlsArgs()));
    base = { port: node.port, password: PASSWORD };
  });
  afterAll(async () => {
    await node?.stop();
    if (dataDir) removeDir(dataDir);
  });

  it('serves mysql2 over TLS: queries, prepared statements, large rows, Ssl_cipher, @@have_ssl', async () => {
    const c = await mysql.createConnection({ host: '127.0.0.1', user: 'root', ...base, ssl: { rejectUnauthorized: false } });
    try {
      const [status] = await c.query<RowDataPacket[]>("SHOW STATUS LIKE 'Ssl_%'");
      const byName = new Map(status.map((r) => [r['Variable_name'], r['Value']]));
      expect(byName.get('Ssl_cipher')).toMatch(/\w/);
      expect(byName.get('Ssl_version')).toMatch(/^TLSv1\.[23]$/);
      const [vars] = await c.query<RowDataPacket[]>('SELECT @@have_ssl AS s, @@have_openssl AS o, @@require_secure_transport AS r');
      expect(vars[0]).toEqual({ s: 'YES', o: 'YES', r: 0 }); // a BOOL variable is an integer column, as in MySQL
      await c.query('CREATE DATABASE tlsdb');
      await c.query('CREATE TABLE tlsdb.t (id INT PRIMARY KEY, body LONGTEXT)');
      const big = 'x'.repeat(300_000);
      await c.execute('INSERT INTO tlsdb.t VALUES (?, ?), (?, ?)', [1, big, 2, 'small']);
      const [rows] = await c.execute<RowDataPacket[]>('SELECT id, LENGTH(body) AS n, body FROM tlsdb.t WHERE id >= ? ORDER BY id', [1]);
      expect(rows.map((r) => [r['id'], r['n']])).toEqual([[1, 300_000], [2, 5]]);
      expect(rows[0]?.['body']).toBe(big);
    } finally {
      await c.end();
    }
  });

  it('verifies the server certificate with ssl.ca', async () => {
    const row = await one({ ...base, ssl: { ca: readFileSync(certs.cert) } }, "SHOW STATUS LIKE 'Ssl_cipher'");
    expect(row['Value']).toMatch(/\w/);
  });

  it('keeps plain connections plain', async () => {
    const row = await one(base, "SHOW STATUS LIKE 'Ssl_cipher'");
    expect(row['Value']).toBe('');
  });

  it('authenticates caching_sha2_password over TLS and refuses a wrong password', async () => {
    const p = await sha2Proxy(node.port);
    try {
      const row = await one({ port: p.port, password: PASSWORD, ssl: { rejectUnauthorized: false } }, "SHOW STATUS LIKE 'Ssl_cipher'");
      expect(row['Value']).toMatch(/\w/);
      const bad = one({ port: p.port, password: 'wrong', ssl: { rejectUnauthorized: false } }, 'SELECT 1');
      await expect(bad).rejects.toMatchObject({ errno: 1045 });
    } finally {
      await p.close();
    }
    await expect(one({ ...base, password: 'wrong', ssl: { rejectUnauthorized: false } }, 'SELECT 1')).rejects.toMatchObject({ errno: 1045 });
  });

  it('serves the mysql CLI over TLS (--ssl, --ssl-ca) and plain (--skip-ssl)', async () => {
    const s = await cli(node.port, ['--ssl', '--ssl-verify-server-cert=0', '-e', '\\s']);
    expect(s.stdout).toMatch(/SSL:\s+Cipher in use is \S+/);
    const ca = await cli(node.port, [`--ssl-ca=${certs.cert}`, '-N', '-e', "SHOW STATUS LIKE 'Ssl_cipher'"]);
    expect(ca.stdout).toMatch(/^Ssl_cipher\t\S+\n$/);
    const plain = await cli(node.port, ['--skip-ssl', '-N', '-e', "SHOW STATUS LIKE 'Ssl_cipher'"]);
    expect(plain.stdout).toBe('Ssl_cipher\t\n');
  });

  it('SET GLOBAL require_secure_transport = ON refuses plain connections with 3159', async () => {
    await one({ ...base, ssl: { rejectUnauthorized: false } }, 'SET GLOBAL require_secure_transport = ON');
    try {
      await expect(one(base, 'SELECT 1')).rejects.toMatchObject({ errno: 3159, sqlState: 'HY000' });
      const row = await one({ ...base, ssl: { rejectUnauthorized: false } }, 'SELECT @@require_secure_transport AS r');
      expect(row['r']).toBe(1);
    } finally {
      await one({ ...base, ssl: { rejectUnauthorized: false } }, 'SET GLOBAL require_secure_transport = OFF');
    }
    expect(Number((await one(base, 'SELECT 1 AS x'))['x'])).toBe(1);
  });
});

describe('shale serve --require-secure-transport', () => {
  let node: SpawnedNode;
  let dataDir: string;

  beforeAll(async () => {
    ({ node, dataDir } = await startTlsNode([...tlsArgs(), '--require-secure-transport']));
  });
  afterAll(async () => {
    await node?.stop();
    if (dataDir) removeDir(dataDir);
  });

  it('refuses plain connections with 3159 and serves TLS ones', async () => {
    const plain = one({ port: node.port, password: PASSWORD }, 'SELECT 1');
    await expect(plain).rejects.toMatchObject({
      errno: 3159,
      message: 'Connections using insecure transport are prohibited while --require_secure_transport=ON.',
    });
    expect(await cliError(node.port, ['--skip-ssl', '-e', 'SELECT 1'])).toMatch(/ERROR 3159 \(HY000\)/);
    const row = await one({ port: node.port, password: PASSWORD, ssl: { rejectUnauthorized: false } }, 'SELECT @@require_secure_transport AS r');
    expect(row['r']).toBe(1);
    const s = await cli(node.port, ['--ssl', '--ssl-verify-server-cert=0', '-N', '-e', 'SELECT 42']);
    expect(s.stdout).toBe('42\n');
  });
});

describe('shale serve without TLS flags', () => {
  let node: SpawnedNode;
  let dataDir: string;

  beforeAll(async () => {
    ({ node, dataDir } = await startTlsNode([], ''));
  });
  afterAll(async () => {
    await node?.stop();
    if (dataDir) removeDir(dataDir);
  });

  it('does not offer TLS: mysql2 with ssl fails clearly, plain works, have_ssl is DISABLED', async () => {
    const tls = one({ port: node.port, ssl: { rejectUnauthorized: false } }, 'SELECT 1');
    await expect(tls).rejects.toMatchObject({ code: 'HANDSHAKE_NO_SSL_SUPPORT', message: 'Server does not support secure connection' });
    const row = await one({ port: node.port }, 'SELECT @@have_ssl AS s, @@have_openssl AS o');
    expect(row).toEqual({ s: 'DISABLED', o: 'DISABLED' });
    const status = await one({ port: node.port }, "SHOW STATUS LIKE 'Ssl_cipher'");
    expect(status['Value']).toBe('');
  });

  it('refuses SET GLOBAL require_secure_transport = ON with 3797', async () => {
    await expect(one({ port: node.port }, 'SET GLOBAL require_secure_transport = ON')).rejects.toMatchObject({ errno: 3797 });
    expect((await one({ port: node.port }, 'SELECT @@require_secure_transport AS r'))['r']).toBe(0);
  });
});

describe('bad TLS flags', () => {
  async function startupError(args: string[]): Promise<string> {
    const dataDir = tempDir('tls-bad');
    try {
      await run(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), 'serve', '--port', '0', '--data-dir', dataDir, ...args], { timeout: 30_000 });
      return 'started';
    } catch (err) {
      const e = err as { code?: number; stderr?: string };
      expect(e.code).toBe(1);
      return e.stderr ?? '';
    } finally {
      removeDir(dataDir);
    }
  }

  it('stops at startup with a message naming the file or flag', async () => {
    const missing = join(certs.dir, 'nope.pem');
    const cases: Array<[string[], string]> = [
      [['--tls-cert', missing, '--tls-key', certs.key], `cannot read TLS certificate file ${missing}`],
      [['--tls-cert', certs.key, '--tls-key', certs.key], `TLS certificate file ${certs.key} does not hold a PEM certificate`],
      [['--tls-cert', certs.cert, '--tls-key', certs.cert], `TLS key file ${certs.cert} does not hold`],
      [['--tls-cert', certs.cert, '--tls-key', certs.otherKey], `TLS key file ${certs.otherKey} does not match certificate file ${certs.cert}`],
      [['--tls-cert', certs.cert], '--tls-cert and --tls-key must be given together'],
      [['--require-secure-transport'], '--require-secure-transport needs TLS'],
    ];
    const errors = await Promise.all(cases.map(([args]) => startupError(args)));
    errors.forEach((stderr, i) => expect(stderr).toContain(cases[i]?.[1]));
  });
});
