/**
 * Smoke test of sysbench/in-process-dml.ts (CPU per prepared DML statement in-process): runs the
 * script with tsx on a tiny table for one round of one second and checks the shape of what it
 * reports, that it ran the built engine when there is one, and that it removed its store.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { DmlResult } from '../../sysbench/in-process-dml.js';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const parent = mkdtempSync(join(tmpdir(), 'shale-dml-bench-test-'));

afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('sysbench/in-process-dml.ts', () => {
  it('reports statements per second and CPU per statement for each round, and removes its store', async () => {
    const dataDir = join(parent, 'store');
    const sql = 'UPDATE sbtest1 SET c=? WHERE id=?';
    const args = ['sysbench/in-process-dml.ts', '--sql', sql, '--rows', '300', '--sessions', '4', '--duration', '1', '--rounds', '2', '--data-dir', dataDir, '--json'];
    const { stdout } = await run(resolve(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, timeout: 60_000 });
    const res = JSON.parse(stdout) as DmlResult;
    expect([res.sql, res.rows, res.sessions]).toEqual([sql, 300, 4]);
    expect(res.code).toBe(existsSync(join(ROOT, 'dist/sql/session/index.js')) ? 'dist' : 'src');
    expect(res.rounds).toHaveLength(2);
    for (const r of res.rounds) {
      expect(r.errors).toBe(0);
      expect(r.statements).toBeGreaterThan(0);
      expect(r.cpuUs).toBeGreaterThan(0);
      expect(r.cpuUs).toBeCloseTo(r.userUs + r.systemUs, 6);
    }
    expect(existsSync(dataDir)).toBe(false);
  }, 90_000);

  it('refuses a --code other than dist or src', async () => {
    const args = ['sysbench/in-process-dml.ts', '--code', 'lib', '--rows', '10', '--duration', '1', '--rounds', '1'];
    await expect(run(resolve(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, timeout: 60_000 })).rejects.toMatchObject({ stderr: expect.stringContaining('--code must be dist or src') });
  }, 90_000);
});
