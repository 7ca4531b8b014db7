/**
 * The write watchdog (write-watchdog.ts): a write that never finishes (lmdb-js's write thread
 * stalled after its free-list fault) is reported once, so the server can exit and be restarted
 * instead of hanging with LMDB's write lock held.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { WriteWatchdog } from '../../src/kv/embedded/write-watchdog.js';
import { utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

describe('WriteWatchdog', () => {
  it('reports the oldest unfinished write once it reaches the limit, and only once', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const ages: number[] = [];
      const dog = new WriteWatchdog(1000, (age) => ages.push(age));
      const a = dog.begin();
      vi.setSystemTime(1_000_400);
      const b = dog.begin();
      dog.end(a);
      dog.check(1_001_300); // b is 900 ms old
      expect(ages).toEqual([]);
      dog.check(1_001_400);
      expect(ages).toEqual([1000]);
      dog.check(1_009_000);
      expect(ages).toEqual([1000]);
      dog.end(b);
      dog.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('finished writes and a disabled watchdog report nothing', () => {
    const ages: number[] = [];
    const dog = new WriteWatchdog(1000, (age) => ages.push(age));
    dog.end(dog.begin());
    dog.check(Date.now() + 60_000);
    const off = new WriteWatchdog(0, (age) => ages.push(age));
    off.begin();
    off.check(Date.now() + 60_000);
    expect(ages).toEqual([]);
    dog.stop();
    off.stop();
  });
});

describe('embedded store: a commit whose write batch never finishes', () => {
  it('is reported by the watchdog after stuckWriteMs', async () => {
    const dir = tempDir('shale-stuck-');
    const stuck: number[] = [];
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0, stuckWriteMs: 100, onStuckWrite: (age) => stuck.push(age) });
    try {
      // lmdb-js's stall: the batch's promise never settles.
      const data = (store as unknown as { dbs: { data: { childTransaction: () => Promise<unknown> } } }).dbs.data;
      data.childTransaction = () => new Promise<unknown>(() => undefined);
      const snap = await store.snapshot();
      void store.commit({ startTs: snap.startTs, mutations: [{ op: 'put', key: utf8Encode('k'), value: utf8Encode('v') }], checkKeys: [] });
      snap.release();
      for (let i = 0; i < 100 && stuck.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(stuck).toHaveLength(1);
      expect(stuck[0]).toBeGreaterThanOrEqual(100);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
