/**
 * EmbeddedStoreOptions.checkpointMs / `lmdb://...?checkpoint-ms=`: the least time between two
 * timed checkpoints (checkpointer.ts). The timer ticks at least once a second; a tick sooner
 * than the interval after the last checkpoint only renews the lease.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../../src/kv/index.js';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { readCheckpoint } from '../../src/kv/embedded/checkpoint-file.js';
import { utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

async function put(store: EmbeddedStore, key: string): Promise<void> {
  await store.commit({ startTs: store.latestCommitTs(), mutations: [{ op: 'put', key: utf8Encode(key), value: utf8Encode('v') }], checkKeys: [] });
}

const gen = (dir: string): bigint => readCheckpoint(dir)?.gen ?? -1n;

describe('checkpoint interval', () => {
  it('a timed checkpoint waits for the interval since the last one, then runs once there were writes', async () => {
    const dir = tempDir('shale-cp-interval-');
    try {
      const store = EmbeddedStore.open(dir, { bootId: 'b1', checkpointMs: 1500, gcIntervalMs: 0 });
      try {
        const atOpen = gen(dir);
        await put(store, 'a');
        // The timer ticks every second: the tick at ~1 s is too soon after the checkpoint at open.
        await sleep(1200);
        expect(gen(dir)).toBe(atOpen);
        await sleep(1300);
        expect(gen(dir)).toBe(atOpen + 1n);
        // No writes since: later ticks do not checkpoint.
        await sleep(2100);
        expect(gen(dir)).toBe(atOpen + 1n);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checkpoint() and close() checkpoint regardless of the interval', async () => {
    const dir = tempDir('shale-cp-interval-');
    try {
      const store = EmbeddedStore.open(dir, { bootId: 'b1', checkpointMs: 60_000, gcIntervalMs: 0 });
      const atOpen = gen(dir);
      await put(store, 'a');
      expect(await store.checkpoint()).toBe(true);
      expect(gen(dir)).toBe(atOpen + 1n);
      await put(store, 'b');
      await store.close();
      expect(gen(dir)).toBe(atOpen + 2n);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads checkpoint-ms from the store URL and rejects a bad value', async () => {
    const base = tempDir('shale-cp-url-');
    try {
      const store = await openStore(`lmdb://${base}/db?checkpoint-ms=0&map-size=8MiB`);
      await store.close();
      await expect(openStore(`lmdb://${base}/db?checkpoint-ms=5s`)).rejects.toThrow(/bad checkpoint-ms '5s'/);
      await expect(openStore(`lmdb://${base}/db?checkpoint-ms=-1`)).rejects.toThrow(/bad checkpoint-ms '-1'/);
      await expect(openStore(`lmdb://${base}/db?checkpoints=1`)).rejects.toThrow(/unknown option 'checkpoints'.*checkpoint-ms/);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
