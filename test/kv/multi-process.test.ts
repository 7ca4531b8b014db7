import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type Store } from '../../src/kv/index.js';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { readCheckpoint } from '../../src/kv/embedded/checkpoint-file.js';
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

/** Which of the `acked` rows (`<prefix>-<i>`) the store lacks; closes the store unless `keepOpen`. */
async function missingRows(kv: Store, acked: readonly number[], prefix = 'row', keepOpen = false): Promise<number[]> {
  try {
    const snap = await kv.snapshot();
    const values = await snap.batchGet(acked.map((i) => utf8Encode(`${prefix}-${String(i).padStart(8, '0')}`)));
    snap.release();
    return acked.filter((_, j) => values[j] === undefined);
  } finally {
    if (!keepOpen) await kv.close();
  }
}

/** Collects the numbers an ack-writer child prints until `enough` says stop (or it exits). */
function collectAcks(child: ChildProcess, enough: (acked: readonly number[]) => boolean): Promise<number[]> {
  const acked: number[] = [];
  let partial = '';
  return new Promise((resolve) => {
    child.stdout?.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) acked.push(Number(line));
      if (enough(acked)) resolve(acked);
    });
    child.on('exit', () => resolve(acked));
  });
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
    const image = tempDir('shale-kill-image-');
    try {
      const child = spawnChild('ack-writer-child.ts', [dir]);
      const started = Date.now();
      const done = exited(child);
      // Past at least one timed checkpoint (1 s), so the log holds a later generation too.
      const acked = await collectAcks(child, (a) => a.length >= 400 && Date.now() - started > 1500);
      child.kill('SIGKILL');
      const { stderr } = await done;
      expect(acked.length, stderr).toBeGreaterThanOrEqual(400);
      // The same files read after a reboot: the checkpoint's meta pages go back and the redo log,
      // as the killed process left it, is replayed (recovery.ts).
      for (const name of readdirSync(dir)) if (name !== 'lock.mdb') copyFileSync(join(dir, name), join(image, name));
      expect(await missingRows(EmbeddedStore.open(image, { bootId: 'after-a-reboot' }), acked)).toEqual([]);
      // Same boot: nothing to replay; the dead writer's checkpoint lease is taken over at once.
      const genBefore = readCheckpoint(dir)?.gen ?? -1n;
      expect(await missingRows(await openStore(dir), acked)).toEqual([]);
      expect(readCheckpoint(dir)?.gen ?? -1n).toBeGreaterThan(genBefore);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(image, { recursive: true, force: true });
    }
  });

  it('two writers SIGKILLed together: their interleaved log replays every acknowledged commit after a reboot', async () => {
    const dir = tempDir('shale-kill2-');
    const image = tempDir('shale-kill2-image-');
    try {
      const children = ['p', 'q'].map((prefix) => spawnChild('ack-writer-child.ts', [dir, prefix]));
      const started = Date.now();
      const done = children.map(exited);
      const acks = await Promise.all(children.map((c) => collectAcks(c, (a) => a.length >= 300 && Date.now() - started > 2500)));
      for (const c of children) c.kill('SIGKILL');
      const ends = await Promise.all(done);
      for (const [i, a] of acks.entries()) expect(a.length, ends[i]?.stderr).toBeGreaterThanOrEqual(300);
      for (const name of readdirSync(dir)) if (name !== 'lock.mdb') copyFileSync(join(dir, name), join(image, name));
      const recovered = EmbeddedStore.open(image, { bootId: 'after-a-reboot' });
      expect(await missingRows(recovered, acks[0] as number[], 'p', true)).toEqual([]);
      expect(await missingRows(recovered, acks[1] as number[], 'q')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(image, { recursive: true, force: true });
    }
  });
});
