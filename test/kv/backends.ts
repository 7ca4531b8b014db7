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
