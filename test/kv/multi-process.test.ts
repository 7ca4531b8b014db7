import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/kv/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function spawnChild(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', fixture(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('embedded store shared by several OS processes', () => {
  it('two processes incrementing one counter end at exactly 2N', async () => {
    const dir = tempDir('shale-mp-');
    try {
      const n = 150;
      const children = [spawnChild('counter-child.ts', [dir, String(n)]), spawnChild('counter-child.ts', [dir, String(n)])];
      const results = await Promise.all(children.map(exited));
      for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
      const kv = await openStore(dir);
      const value = await createTxnStore(kv).view((txn) => txn.get(utf8Encode('counter')));
      await kv.close();
      expect(value === undefined ? undefined : utf8Decode(value)).toBe(String(2 * n));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every acknowledged commit survives SIGKILL of the writer', async () => {
    const dir = tempDir('shale-kill-');
    try {
      const child = spawnChild('ack-writer-child.ts', [dir]);
      const done = exited(child);
      const acked: number[] = [];
      let partial = '';
      await new Promise<void>((resolve) => {
        child.stdout?.on('data', (d: Buffer) => {
          const lines = (partial + d.toString()).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) acked.push(Number(line));
          if (acked.length >= 400) resolve();
        });
        child.on('exit', () => resolve());
      });
      child.kill('SIGKILL');
      const { stderr } = await done;
      expect(acked.length, stderr).toBeGreaterThanOrEqual(400);
      const kv = await openStore(dir);
      const snap = await kv.snapshot();
      const values = await snap.batchGet(acked.map((i) => utf8Encode(`row-${String(i).padStart(8, '0')}`)));
      const missing = acked.filter((_, j) => values[j] === undefined);
      snap.release();
      await kv.close();
      expect(missing).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
