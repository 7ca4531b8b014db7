import { expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/kv/index.js';
import { openStore } from '../../src/kv/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { sharedEtcdUrl } from '../helpers/etcd.js';

/** A fresh, empty keyspace of one backend; open() may be called again after close() (reopen). */
export interface BackendSpace {
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

/** Backend name -> factory of fresh spaces. Adding a backend (e.g. etcd) is one line here. */
export const BACKENDS: Readonly<Record<string, () => Promise<BackendSpace>>> = {
  embedded: embeddedSpace,
  etcd: etcdSpace,
};

export { selectedBackends } from '../helpers/backends.js';

/** The value of `key` as text in a fresh snapshot of `store` (undefined when absent). */
export async function readText(store: Store, key: string): Promise<string | undefined> {
  const snap = await store.snapshot();
  try {
    const v = await snap.get(utf8Encode(key));
    return v === undefined ? undefined : utf8Decode(v);
  } finally {
    snap.release();
  }
}

/**
 * Eight commits of `k` = `v<i>`, all from snapshot `startTs` and queued together: exactly one
 * wins, the others fail with 1213, and the winner's value is what `k` holds.
 */
export async function expectOneOfEightWins(store: Store, startTs: bigint): Promise<void> {
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, (_, i) => store.commit({ startTs, mutations: [{ op: 'put', key: utf8Encode('k'), value: utf8Encode(`v${i}`) }], checkKeys: [] })),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ errno: 1213 });
  expect(await readText(store, 'k')).toBe(`v${results.findIndex((r) => r.status === 'fulfilled')}`);
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function embeddedSpace(): Promise<BackendSpace> {
  const dir = tempDir('shale-kv-');
  return {
    open: () => openStore(`lmdb://${dir}`),
    cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

async function etcdSpace(): Promise<BackendSpace> {
  const url = sharedEtcdUrl();
  return {
    open: () => openStore(url),
    cleanup: async () => {
      // The namespace is unique to this space; wipe it so the shared etcd stays small.
      const store = await openStore(url);
      await store.deleteRange({ start: new Uint8Array([0]), end: new Uint8Array([0xff, 0xff, 0xff, 0xff]) });
      await store.close();
    },
  };
}
