/**
 * `shale check bank` end to end (built dist/): against a healthy node it passes with acknowledged
 * transfers; across a SIGKILL and restart of the server on the same data directory mid-run it
 * counts the connection errors and unknown outcomes, reconnects, and still passes.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeDir, spawnNode, startTestNode, tempDir, type SpawnedNode, type TestNode } from '../helpers/node.js';

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/shale.js check bank ...` without blocking this process (the node may be in it). */
function checkBank(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), 'check', 'bank', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const url = (port: number): string => `mysql://root:@127.0.0.1:${port}/bankcheck`;

/** The fields of the --json result the tests look at, checked rather than cast. */
interface JsonResult {
  status: string;
  counts: { acknowledged: number; unknown: number; rejected: number };
  errors: Record<string, number>;
  connectErrors: Record<string, number>;
}

function parseJsonResult(text: string): JsonResult {
  const v: unknown = JSON.parse(text);
  if (typeof v !== 'object' || v === null || !('status' in v) || !('counts' in v) || !('errors' in v) || !('connectErrors' in v)) {
    throw new Error(`unexpected --json output: ${text}`);
  }
  return v as JsonResult;
}

const sum = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);

describe('shale check bank', () => {
  let node: TestNode | undefined;
  let spawned: SpawnedNode | undefined;
  const dirs: string[] = [];

  afterAll(async () => {
    await node?.stop();
    await spawned?.kill();
    for (const d of dirs) removeDir(d);
  });

  it('passes against a healthy node', async () => {
    const dir = tempDir('check-bank');
    dirs.push(dir);
    node = await startTestNode('embedded', join(dir, 'data'));
    const run = await checkBank(['--url', url(node.port), '--accounts', '20', '--clients', '8', '--duration', '5', '--seed', '1']);
    expect(run.stdout, run.stderr).toMatch(/^PASS$/m);
    expect(run.code).toBe(0);
    const acked = /acknowledged\s+(\d+)/.exec(run.stdout);
    expect(Number(acked?.[1])).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/unknown\s+0 /);
  }, 60_000);

  it('still passes when the server is killed with SIGKILL and restarted mid-run', async () => {
    const dir = tempDir('check-bank-kill');
    dirs.push(dir);
    const dataDir = join(dir, 'data');
    spawned = await spawnNode(dataDir);
    const port = spawned.port;
    const running = checkBank(['--url', url(port), '--accounts', '20', '--clients', '8', '--duration', '8', '--json']);
    await new Promise((r) => setTimeout(r, 3000));
    await spawned.kill();
    await new Promise((r) => setTimeout(r, 500));
    // The later --port overrides spawnNode's --port 0, so the checker finds the server again.
    spawned = await spawnNode(dataDir, ['--port', String(port)]);
    const run = await running;
    const result = parseJsonResult(run.stdout);
    expect(result.status, run.stdout + run.stderr).toBe('PASS');
    expect(run.code).toBe(0);
    expect(result.counts.acknowledged).toBeGreaterThan(0);
    // The kill shows up as statement errors on open connections and refused reconnects.
    const connectionErrors = sum(result.errors) - (result.errors['1213'] ?? 0);
    expect(connectionErrors + sum(result.connectErrors)).toBeGreaterThan(0);
    expect(result.counts.unknown).toBeGreaterThan(0);
  }, 90_000);
});
