/**
 * sysbench/ab.sh end to end on a tiny table: prepare a directory, alternate one pair of runs of
 * this checkout against itself, and leave no server behind (the port is free again).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/etcd.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'sysbench/ab.sh');

function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });
}

function abCopies(): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith('shale-ab.'));
}

describe('sysbench/ab.sh', () => {
  const work = mkdtempSync(join(tmpdir(), 'shale-ab-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('prepares once, alternates runs on two builds and stops what it started', async () => {
    const port = await freePort();
    const copiesBefore = abCopies().length;
    const env = { ...process.env, PORT: String(port), ROWS: '200', PAIRS: '1', TIME: '1', WARM: '0', WORKERS: '1', THREADS: '2' };
    const dir = join(work, 'base');
    const prepared = await run(SCRIPT, ['prepare', dir], { env });
    expect(prepared.stdout).toContain(`prepared ${dir}`);
    expect(existsSync(join(dir, 'data.mdb'))).toBe(true);
    const { stdout } = await run(SCRIPT, ['run', dir, ROOT, ROOT, 'oltp_point_select'], { env, timeout: 120_000 });
    expect(stdout).toMatch(/^pair 1: A \d+(\.\d+)?  B \d+(\.\d+)?$/m);
    const median = /median TPS: A (\d+(?:\.\d+)?)  B (\d+(?:\.\d+)?)/.exec(stdout);
    expect(Number(median?.[1])).toBeGreaterThan(0);
    expect(Number(median?.[2])).toBeGreaterThan(0);
    expect(await answers(port)).toBe(false);
    expect(abCopies().length).toBe(copiesBefore);
  }, 180_000);

  it('refuses a port something already listens on', async () => {
    const port = await freePort();
    // The probe closes at once, so the write can meet a reset: swallow it on this socket.
    const busy = createServer((s) => s.on('error', () => undefined).end('x')).listen(port, '127.0.0.1');
    try {
      await expect(run(SCRIPT, ['run', join(work, 'base'), ROOT, ROOT, 'oltp_point_select'], { env: { ...process.env, PORT: String(port) } })).rejects.toMatchObject({
        stderr: expect.stringContaining(`something already listens on port ${port}`),
      });
    } finally {
      busy.close();
    }
  });
});
