/**
 * Test helpers that run real etcd members (Debian's etcd-server 3.4) on 127.0.0.1, on ports
 * picked free, in a private data directory, and stop everything they started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

export interface EtcdMember {
  readonly name: string;
  readonly clientPort: number;
  readonly peerPort: number;
  /** SIGKILL the member (it stays down until restart()). */
  kill(): Promise<void>;
  /** Starts the member again on its data dir after kill(). */
  restart(): Promise<void>;
  alive(): boolean;
}

export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  readonly endpoints: readonly string[];
  /** `etcd://…/prefix` for a fresh namespace (default: a random one). */
  url(prefix?: string): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts an etcd cluster of `size` members and waits until it serves requests. */
export async function startEtcd(size = 1): Promise<EtcdCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'shale-etcd-'));
  const token = `shale-test-${randomBytes(4).toString('hex')}`;
  const ports: Array<{ client: number; peer: number }> = [];
  for (let i = 0; i < size; i++) ports.push({ client: await freePort(), peer: await freePort() });
  const initial = ports.map((p, i) => `m${i}=http://127.0.0.1:${p.peer}`).join(',');
  const members = ports.map((p, i) => makeMember(`m${i}`, p.client, p.peer, dir, initial, token));
  await Promise.all(members.map((m) => m.restart()));
  await Promise.all(members.map((m) => waitHealthy(m.clientPort)));
  const endpoints = ports.map((p) => `127.0.0.1:${p.client}`);
  return {
    members,
    endpoints,
    url: (prefix = `t${randomBytes(6).toString('hex')}`) => `etcd://${endpoints.join(',')}/${prefix}`,
    async stop() {
      await Promise.all(members.map((m) => m.kill()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function makeMember(name: string, clientPort: number, peerPort: number, dir: string, initial: string, token: string) {
  let child: ChildProcess | undefined;
  const args = [
    `--name=${name}`,
    `--data-dir=${join(dir, name)}`,
    `--listen-client-urls=http://127.0.0.1:${clientPort}`,
    `--advertise-client-urls=http://127.0.0.1:${clientPort}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=${initial}`,
    `--initial-cluster-state=new`,
    `--initial-cluster-token=${token}`,
    '--max-txn-ops=10000',
    '--max-request-bytes=33554432',
    '--quota-backend-bytes=8589934592',
    '--auto-compaction-retention=0',
    '--log-level=error',
    '--logger=zap',
  ];
  const member: EtcdMember = {
    name,
    clientPort,
    peerPort,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async kill() {
      const c = child;
      if (c === undefined || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((r) => {
        c.once('exit', () => r());
        c.kill('SIGKILL');
      });
    },
    async restart() {
      child = spawn('etcd', args, { stdio: ['ignore', 'ignore', 'ignore'] });
      child.once('error', () => undefined);
    },
  };
  return member;
}

async function waitHealthy(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      last = await res.text();
      if (res.ok && /"health":\s*"true"/.test(last)) return;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd on port ${port} not healthy after 30 s: ${last}`);
}

/** `etcd://<shared test etcd>/<fresh prefix>` (global-setup.ts starts it when KV_BACKENDS has etcd). */
export function sharedEtcdUrl(): string {
  const endpoints = process.env['SHALE_TEST_ETCD'];
  if (endpoints === undefined) throw new Error('KV backend etcd selected but no test etcd runs (SHALE_TEST_ETCD unset)');
  return `etcd://${endpoints}/t${randomBytes(6).toString('hex')}`;
}
