/**
 * Smoke test of sysbench/embedded-commit.ts (durable commit throughput of the embedded store and
 * the disk's fdatasync cost): runs the script with tsx on a tiny key set for one second per
 * concurrency and checks the shape of what it reports and that it removed its store.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommitResult } from '../../sysbench/embedded-commit.js';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const parent = mkdtempSync(join(tmpdir(), 'shale-commit-bench-test-'));

afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('sysbench/embedded-commit.ts', () => {
  it('reports commit throughput per concurrency and fdatasync costs, and removes its store', async () => {
    const dataDir = join(parent, 'store');
    const args = ['sysbench/embedded-commit.ts', '--keys', '300', '--concurrency', '1,4', '--duration', '1', '--data-dir', dataDir, '--json'];
    const { stdout } = await run(resolve(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, timeout: 30_000 });
    const res = JSON.parse(stdout) as CommitResult;
    expect(res.keys).toBe(300);
    expect(res.runs.map((r) => r.concurrency)).toEqual([1, 4]);
    for (const r of res.runs) {
      expect(r.errors).toBe(0);
      expect(r.committed).toBeGreaterThan(0);
      expect(r.committed + r.conflicts).toBe(r.ops);
      expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
    }
    // One loop never conflicts with itself.
    expect(res.runs[0]?.conflicts).toBe(0);
    expect(res.fsync.map((f) => f.pages)).toEqual([0, 8, 25]);
    for (const f of res.fsync) expect(f.msPerSync).toBeGreaterThan(0);
    expect(existsSync(dataDir)).toBe(false);
  }, 40_000);

  it('refuses a --data-dir that exists (it would delete it)', async () => {
    const args = ['sysbench/embedded-commit.ts', '--data-dir', parent, '--duration', '1'];
    const err = await run(resolve(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, timeout: 30_000 }).then(
      () => undefined,
      (e: unknown) => e as { code?: number; stderr?: string },
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain('exists');
    expect(existsSync(parent)).toBe(true);
  }, 40_000);
});
