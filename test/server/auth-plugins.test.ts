/**
 * mysql2 through a byte-rewriting proxy: the greeting advertises caching_sha2_password (mysql2
 * then answers with a sha2 token -> fast auth), or the client's plugin name is replaced by an
 * unknown one (the server must AuthSwitch to native). Both names are 21 bytes long, so no
 * packet length changes.
 */
import { createServer, connect, type Server } from 'node:net';
import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { FakeEngine } from './helpers/fake-engine.js';

let engine: FakeEngine;
let server: RunningServer;

beforeAll(async () => {
  engine = new FakeEngine();
  server = await startServer({ host: '127.0.0.1', port: 0, engine, logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await server.close();
});

interface Rewrite {
  readonly toClient?: [string, string];
  readonly toServer?: [string, string];
}

/** Replaces `from` by `to` (same length) in the first chunk of each direction. */
async function proxy(rw: Rewrite): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const replaceOnce = (pair: [string, string] | undefined) => {
    let done = false;
    return (chunk: Buffer): Buffer => {
      if (done || pair === undefined) return chunk;
      done = true;
      const at = chunk.indexOf(pair[0], 0, 'latin1');
      if (at < 0) return chunk;
      seen.push(pair[1]);
      const out = Buffer.from(chunk);
      out.write(pair[1], at, 'latin1');
      return out;
    };
  };
  const srv: Server = createServer((client) => {
    const upstream = connect(server.port, '127.0.0.1');
    const toClient = replaceOnce(rw.toClient);
    const toServer = replaceOnce(rw.toServer);
    upstream.on('data', (c: Buffer) => client.write(toClient(c)));
    client.on('data', (c: Buffer) => upstream.write(toServer(c)));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  return { port, seen, close: () => new Promise((r) => srv.close(() => r())) };
}

describe('auth plugins with mysql2', () => {
  it('caching_sha2_password fast auth with a password-protected user', async () => {
    const p = await proxy({ toClient: ['mysql_native_password', 'caching_sha2_password'] });
    try {
      const c = await mysql.createConnection({ host: '127.0.0.1', port: p.port, user: 'alice', password: 's3cret-pw' });
      const [rows] = await c.query('SELECT 1');
      expect(rows).toEqual([{ 1: 1 }]);
      await c.end();
      expect(p.seen).toEqual(['caching_sha2_password']);
      const bad = mysql.createConnection({ host: '127.0.0.1', port: p.port, user: 'alice', password: 'nope' });
      await expect(bad).rejects.toMatchObject({ errno: 1045 });
    } finally {
      await p.close();
    }
  });

  it('AuthSwitchRequest to native for an unknown client plugin', async () => {
    const p = await proxy({ toServer: ['mysql_native_password', 'unknown_test_password'] });
    try {
      const c = await mysql.createConnection({ host: '127.0.0.1', port: p.port, user: 'alice', password: 's3cret-pw' });
      const [rows] = await c.query('SELECT 1');
      expect(rows).toEqual([{ 1: 1 }]);
      await c.end();
      expect(p.seen).toEqual(['unknown_test_password']);
      const bad = mysql.createConnection({ host: '127.0.0.1', port: p.port, user: 'bob', password: 's3cret-pw' });
      await expect(bad).rejects.toMatchObject({ errno: 1045, sqlState: '28000' });
    } finally {
      await p.close();
    }
  });
});
