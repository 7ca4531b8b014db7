/**
 * Opening a data directory while another process commits must not lose a commit. lmdb-js 3.5's
 * bundled LMDB moved the shared "last transaction" counter back when a second process opened
 * the environment during a commit, and the next write then started from the older meta page,
 * overwriting the acknowledged commit (LMDB's ITS#9496). scripts/build-lmdb.mjs builds the
 * add-on with the fix at install time; with lmdb-js's prebuilt binary (PREBUILDS_ONLY=1) this
 * test fails within a few dozen opens.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EmbeddedStore, lmdbHasOpenFix } from '../../src/kv/embedded/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const OPENS = 60;

describe('embedded store opened by a second process while the first commits', () => {
  it('this process loads the lmdb add-on built with the fix (scripts/build-lmdb.mjs)', () => {
    expect(lmdbHasOpenFix()).toBe(true);
  });

  it(`${OPENS} opens and closes during a stream of commits lose none of them`, async () => {
    const dir = tempDir('shale-open-race-');
    try {
      await EmbeddedStore.open(dir, { gcIntervalMs: 0 }).close();
      const fixture = fileURLToPath(new URL('./fixtures/open-race-writer.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve();
        }),
      );
      for (let i = 0; i < OPENS && !out.includes('LOST'); i++) {
        const store = EmbeddedStore.open(dir, { gcIntervalMs: 0, checkpointMs: 0 });
        await store.close();
      }
      child.stdin.end();
      const code = await exited;
      expect({ code, out: out.trim(), err }).toMatchObject({ code: 0 });
      const count = Number(/count (\d+)/.exec(out)?.[1]);
      expect(count).toBeGreaterThan(0);
      const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
      const snap = store.snapshotNow();
      const raw = await snap.get(utf8Encode('counter'));
      snap.release();
      await store.close();
      expect(raw === undefined ? 0 : Number(utf8Decode(raw))).toBe(count);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
