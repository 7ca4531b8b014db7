/**
 * The embedded store checks a commit without mutations in a read transaction (checkOnlyCommit),
 * not in the write queue: such a commit neither waits for a write batch nor for its fsync.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);

describe('embedded store: a commit with only checked keys', () => {
  it('is answered while the write queue is blocked, with the same conflict rule', async () => {
    const dir = tempDir('shale-check-only-');
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
    try {
      const s0 = await store.snapshot();
      await store.commit({ startTs: s0.startTs, mutations: [{ op: 'put', key: b('k'), value: b('1') }], checkKeys: [] });
      s0.release();
      const snap = await store.snapshot();
      const stale = s0.startTs;
      // From here on every write batch hangs (as if lmdb-js's write thread were busy or stalled).
      const data = (store as unknown as { dbs: { data: { transaction: () => Promise<unknown> } } }).dbs.data;
      data.transaction = () => new Promise<unknown>(() => undefined);
      await expect(store.commit({ startTs: snap.startTs, mutations: [], checkKeys: [b('k'), b('other')] })).resolves.toBe(snap.startTs);
      await expect(store.commit({ startTs: stale, mutations: [], checkKeys: [b('k')] })).rejects.toMatchObject({ errno: 1213 });
      snap.release();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
