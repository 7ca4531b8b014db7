/**
 * Crash recovery of the embedded store's redo log (recovery.ts, checkpointer.ts).
 *
 * An OS crash cannot be staged in a test, so its outcome is built: after the store's last
 * checkpoint the test copies the data file (S); after more acknowledged commits it copies it
 * again (F). The kernel may have written any of the pages that changed in between, or part of
 * one, so the crash image takes, for every page that differs between S and F, S's version, F's
 * version or garbage at random (meta pages included), and the log files and checkpoint file as
 * they are (they were fsync'd before any commit was acknowledged). Opened with another boot id,
 * the store must hold exactly the acknowledged commits, and keep working.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedStore, type EmbeddedStoreOptions } from '../../src/kv/embedded/index.js';
import type { EmbeddedDbs } from '../../src/kv/embedded/commit-apply.js';
import type { Mutation } from '../../src/kv/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { decodeChained, readChain } from '../../src/kv/embedded/redo-record.js';
import { tempDir } from './backends.js';

const PAGE = 4096;
const KEYS = 300;

/** A deterministic PRNG (mulberry32), so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const key = (i: number): string => `key-${String(i).padStart(4, '0')}`;

/** Random commits of 1–4 puts/deletes each, acknowledged one by one and mirrored in `model`. */
async function churn(store: EmbeddedStore, model: Map<string, string>, rand: () => number, commits: number, tag: string): Promise<void> {
  const pending: Array<Promise<void>> = [];
  const inGroup = new Set<string>();
  for (let c = 0; c < commits; c++) {
    const mutations: Mutation[] = [];
    const touched = new Map<string, string | undefined>();
    for (let n = 1 + Math.floor(rand() * 4); n > 0; n--) {
      const i = Math.floor(rand() * KEYS);
      const k = key(i);
      // Every third key is written as derived (no check, a delete leaves no tombstone): replayed alike.
      const derived = i % 3 === 0 ? { derived: true as const } : {};
      // Concurrent commits of one group touch disjoint keys (no write conflicts).
      if (inGroup.has(k)) continue;
      inGroup.add(k);
      if (rand() < 0.25) {
        mutations.push({ op: 'del', key: utf8Encode(k), ...derived });
        touched.set(k, undefined);
      } else {
        const v = `${tag}-${c}-`.padEnd(40 + Math.floor(rand() * 200), 'x');
        mutations.push({ op: 'put', key: utf8Encode(k), value: utf8Encode(v), ...derived });
        touched.set(k, v);
      }
    }
    // Groups of concurrent commits share write batches, as under load.
    const startTs = store.latestCommitTs();
    pending.push(
      store.commit({ startTs, mutations, checkKeys: [] }).then(() => {
        for (const [k, v] of touched) if (v === undefined) model.delete(k);
        else model.set(k, v);
      }),
    );
    if (pending.length === 8 || c === commits - 1) {
      await Promise.all(pending.splice(0));
      inGroup.clear();
    }
  }
}

async function contents(store: EmbeddedStore): Promise<Map<string, string>> {
  const snap = await store.snapshot();
  try {
    const out = new Map<string, string>();
    const values = await snap.batchGet(Array.from({ length: KEYS }, (_, i) => utf8Encode(key(i))));
    values.forEach((v, i) => {
      if (v !== undefined) out.set(key(i), utf8Decode(v));
    });
    return out;
  } finally {
    snap.release();
  }
}

async function expectReopened(dir: string, opts: EmbeddedStoreOptions, model: Map<string, string>): Promise<void> {
  const store = EmbeddedStore.open(dir, { ...opts, gcIntervalMs: 0 });
  try {
    expect(await contents(store)).toEqual(model);
  } finally {
    await store.close();
  }
}

/** The crash image of `dir` into `image` (see the file comment); returns how many pages it changed. */
function crashImage(dir: string, image: string, atCheckpoint: Buffer, rand: () => number, tornLogTail: boolean): number {
  const now = readFileSync(join(dir, 'data.mdb'));
  const out = Buffer.from(now);
  let changed = 0;
  for (let at = 0; at < now.length; at += PAGE) {
    const cur = now.subarray(at, at + PAGE);
    const old = at < atCheckpoint.length ? atCheckpoint.subarray(at, at + PAGE) : undefined;
    if (old !== undefined && old.equals(cur)) continue;
    const pick = rand();
    if (pick < 0.4 && old !== undefined) old.copy(out, at);
    else if (pick < 0.7) for (let i = at; i < at + PAGE && i < out.length; i++) out[i] = Math.floor(rand() * 256);
    else continue;
    changed++;
  }
  writeFileSync(join(image, 'data.mdb'), out);
  for (const name of readdirSync(dir)) {
    if (name === 'checkpoint' || name.startsWith('redo.')) copyFileSync(join(dir, name), join(image, name));
  }
  if (tornLogTail) {
    const last = readdirSync(image)
      .filter((n) => n.startsWith('redo.'))
      .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
      .pop();
    // A record cut short where the next one would go, as an unacknowledged write interrupted by
    // the crash leaves it (the file may be one reused from an older generation, longer than its records).
    if (last !== undefined) {
      const path = join(image, last);
      const buf = readFileSync(path);
      const end = readChain(buf, BigInt(last.slice('redo.'.length))).end;
      const torn = Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 3, 9, 9]);
      writeFileSync(path, end + torn.length > buf.length ? Buffer.concat([buf.subarray(0, end), torn]) : Buffer.concat([buf.subarray(0, end), torn, buf.subarray(end + torn.length)]));
    }
  }
  return changed;
}

describe('embedded store: recovery after an OS crash (redo log)', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: the recovered store holds exactly the acknowledged commits`, async () => {
      const dir = tempDir('shale-redo-');
      const image = tempDir('shale-redo-image-');
      const rand = rng(seed);
      const model = new Map<string, string>();
      try {
        const store = EmbeddedStore.open(dir, { bootId: 'boot-before', checkpointMs: 0, gcIntervalMs: 0 });
        let atCheckpoint: Buffer;
        try {
          await churn(store, model, rand, 150, 'a');
          expect(await store.checkpoint()).toBe(true);
          await churn(store, model, rand, 100, 'b');
          // Seeds 3 and 4 checkpoint again (older log files deleted) before the state the crash keeps.
          if (seed >= 3) expect(await store.checkpoint()).toBe(true);
          atCheckpoint = readFileSync(join(dir, 'data.mdb'));
          await churn(store, model, rand, 200, 'c');
          expect(await contents(store)).toEqual(model);
          const changed = crashImage(dir, image, atCheckpoint, rand, seed % 2 === 0);
          expect(changed).toBeGreaterThan(0);
        } finally {
          // Closing checkpoints the live directory; the image was taken before.
          await store.close();
        }
        const recovered = EmbeddedStore.open(image, { bootId: 'boot-after', checkpointMs: 0, gcIntervalMs: 0 });
        try {
          expect(await contents(recovered)).toEqual(model);
          await churn(recovered, model, rand, 50, 'd');
          expect(await contents(recovered)).toEqual(model);
        } finally {
          await recovered.close();
        }
        // And once more after a clean close, on the same (new) boot: nothing to replay.
        await expectReopened(image, { bootId: 'boot-after', checkpointMs: 0 }, model);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(image, { recursive: true, force: true });
      }
    });
  }

  it('a checkpoint leaves only the current log generation, and a clean close empties it', async () => {
    const dir = tempDir('shale-redo-');
    try {
      const store = EmbeddedStore.open(dir, { bootId: 'b1', checkpointMs: 0, gcIntervalMs: 0 });
      const model = new Map<string, string>();
      await churn(store, model, rng(9), 40, 'x');
      const logs = (): string[] => readdirSync(dir).filter((n) => n.startsWith('redo.'));
      // Records, not bytes: a file reused from an older generation is longer than its records.
      const records = (name: string): number => decodeChained(readFileSync(join(dir, name)), BigInt(name.slice('redo.'.length))).length;
      expect(logs()).toHaveLength(1);
      expect(records(logs()[0] as string)).toBeGreaterThan(0);
      await store.checkpoint();
      expect(logs()).toHaveLength(1);
      expect(records(logs()[0] as string)).toBe(0);
      await churn(store, model, rng(10), 5, 'y');
      await store.close();
      expect(logs().map(records)).toEqual([0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() during a running checkpoint waits for it, and the store reopens with every commit', async () => {
    const dir = tempDir('shale-redo-');
    try {
      const model = new Map<string, string>();
      const store = EmbeddedStore.open(dir, { bootId: 'b1', checkpointMs: 0, gcIntervalMs: 0 });
      await churn(store, model, rng(12), 60, 'w');
      // The checkpoint is past its first await (creating the next log file) when close() starts.
      const running = store.checkpoint();
      await new Promise((resolve) => setImmediate(resolve));
      await store.close();
      await expect(running).resolves.toBe(true);
      await expectReopened(dir, { bootId: 'b1', checkpointMs: 0 }, model);
      // Reopened under another boot id, recovery must find a valid checkpoint and log.
      await expectReopened(dir, { bootId: 'b2', checkpointMs: 0 }, model);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a commit whose write batch failed after logging its record is not replayed after a crash', async () => {
    const dir = tempDir('shale-redo-');
    const image = tempDir('shale-redo-image-');
    try {
      const model = new Map<string, string>();
      const store = EmbeddedStore.open(dir, { bootId: 'b1', checkpointMs: 0, gcIntervalMs: 0, onBackgroundError: () => undefined });
      let atCheckpoint: Buffer;
      try {
        await churn(store, model, rng(13), 30, 'm');
        expect(await store.checkpoint()).toBe(true);
        atCheckpoint = readFileSync(join(dir, 'data.mdb'));
        // The batch runs the commit's callback (which appends its log record), then is aborted as a
        // whole (a synchronous transaction whose callback throws; an async one would still commit).
        const data = (store as unknown as { dbs: EmbeddedDbs }).dbs.data;
        const real = data.transaction.bind(data);
        data.transaction = ((callback: () => unknown) => {
          try {
            data.transactionSync(() => {
              callback();
              throw new Error('injected batch failure');
            });
          } catch (err) {
            return Promise.reject(err);
          }
          return Promise.reject(new Error('the injected failure did not throw'));
        }) as typeof data.transaction;
        const failed = { op: 'put' as const, key: utf8Encode('failed'), value: utf8Encode('never committed') };
        await expect(store.commit({ startTs: store.latestCommitTs(), mutations: [failed], checkKeys: [] })).rejects.toThrow();
        data.transaction = real;
        crashImage(dir, image, atCheckpoint, rng(14), false);
      } finally {
        await store.close();
      }
      const recovered = EmbeddedStore.open(image, { bootId: 'b2', checkpointMs: 0, gcIntervalMs: 0 });
      try {
        const snap = recovered.snapshotNow();
        expect(await snap.get(utf8Encode('failed'))).toBeUndefined();
        snap.release();
        expect(await contents(recovered)).toEqual(model);
      } finally {
        await recovered.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(image, { recursive: true, force: true });
    }
  });

  it('with redoLog off, LMDB syncs each batch itself and no log or checkpoint is written', async () => {
    const dir = tempDir('shale-redo-');
    try {
      const model = new Map<string, string>();
      const store = EmbeddedStore.open(dir, { redoLog: false, gcIntervalMs: 0 });
      await churn(store, model, rng(11), 30, 'z');
      expect(await store.checkpoint()).toBe(false);
      await store.close();
      expect(readdirSync(dir).sort()).toEqual(['data.mdb', 'lock.mdb']);
      await expectReopened(dir, { redoLog: false }, model);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
