/**
 * Test helpers that start real ShaleDB SQL nodes on 127.0.0.1 with a port picked by the OS and a
 * private data directory, and stop everything they started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { startNode, type RunningNode } from '../../src/cli/index.js';
import { sharedEtcdUrl } from './etcd.js';

/** The repository root (import.meta.url, so scripts run with tsx can use these helpers too). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `shale-${prefix}-`));
}

export interface TestNode {
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/** KV backends the shared suites run against (KV_BACKENDS, default embedded,etcd). */
export { selectedBackends as backends } from './backends.js';

/** Starts an in-process node on a fresh data directory. */
export async function startTestNode(backend = 'embedded', dataDir = tempDir('node')): Promise<TestNode> {
  const logger = pino({ level: process.env['SHALE_TEST_LOG'] ?? 'silent' });
  const node: RunningNode = await startNode({ host: '127.0.0.1', port: 0, store: storeUrl(backend, dataDir), logger });
  return {
    port: node.port,
    dataDir,
    async stop() {
      await node.stop();
    },
  };
}

/** The store URL of a fresh database on `backend` (embedded: in `dataDir`; etcd: a new prefix). */
export function storeUrl(backend: string, dataDir: string): string {
  if (backend === 'embedded') return `lmdb://${dataDir}`;
  if (backend === 'etcd') return sharedEtcdUrl();
  throw new Error(`unknown KV backend for tests: ${backend}`);
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * For the enclosing test file or describe block: spawns `shale serve ...args` (spawnNode) on a
 * fresh data directory before its tests, stops it and removes the directory after them. Returns
 * the node, to call from inside the tests.
 */
export function spawnedForSuite(prefix: string, args: readonly string[]): () => SpawnedNode {
  const dataDir = tempDir(prefix);
  let node: SpawnedNode | undefined;
  beforeAll(async () => {
    node = await spawnNode(dataDir, args);
  });
  afterAll(async () => {
    await node?.stop();
    removeDir(dataDir);
  });
  return () => {
    if (node === undefined) throw new Error('the suite node is not running (beforeAll failed?)');
    return node;
  };
}

export interface SpawnedNode {
  readonly port: number;
  readonly child: ChildProcess;
  /** What the server logged on stderr until it listened (store recovery, for one). */
  readonly startupLog: string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

/**
 * Starts `node bin/shale.js serve` (built dist/) as a child process on a free port (`env` added to
 * ours). Resolves once `listeners` processes logged "listening" (default: every --workers worker).
 */
export async function spawnNode(
  dataDir: string,
  extraArgs: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  opts: { readonly listeners?: number } = {},
): Promise<SpawnedNode> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin/shale.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'info', ...extraArgs],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  // With --workers N, every worker logs its own "listening": wait for all of them.
  const workersFlag = extraArgs.indexOf('--workers');
  const listeners = opts.listeners ?? (workersFlag >= 0 ? Number(extraArgs[workersFlag + 1] ?? 1) : 1);
  let buf = '';
  const port = await new Promise<number>((resolvePort, reject) => {
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString();
      const ports = [...buf.matchAll(/"event":"listening".*?"port":(\d+)/g)].map((m) => Number(m[1]));
      if (ports.length >= listeners) {
        child.stderr?.off('data', onData);
        resolvePort(ports[0] as number);
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`shale exited with ${code}: ${buf}`)));
  });
  child.stderr?.resume();
  const waitExit = (): Promise<void> =>
    new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
  return {
    port,
    child,
    startupLog: buf,
    async stop() {
      child.kill('SIGTERM');
      await waitExit();
    },
    async kill() {
      child.kill('SIGKILL');
      await waitExit();
    },
  };
}
