import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Store } from './kv.js';
import { EmbeddedStore } from './embedded/index.js';
import { EtcdStore } from './etcd/index.js';

const SUPPORTED = "'lmdb://<path>', a bare directory path, or 'etcd://host:port[,host:port...][/prefix]'";

export interface OpenStoreOptions {
  /**
   * A key the caller reads at the start of nearly every transaction (the catalog's schema
   * version). Backends with remote reads fetch it together with the start timestamp.
   */
  readonly hotKey?: Uint8Array;
  /** Told about failures of background work (etcd GC rounds); the store keeps going. */
  readonly onBackgroundError?: (what: string, err: unknown) => void;
}

/**
 * Opens the store named by `url`: `lmdb://<path>` or a bare directory path (created with
 * mkdir -p) selects the embedded LMDB store; `etcd://host:port,...[/prefix]` an etcd v3
 * cluster (the optional prefix is a key namespace). Any other `scheme://` is rejected with an
 * Error naming the supported forms.
 */
export function openStore(url: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (/^etcd:\/\//i.test(url.trim())) {
    return EtcdStore.open(url.trim(), {
      ...(opts.hotKey !== undefined ? { hotKey: opts.hotKey } : {}),
      ...(opts.onBackgroundError !== undefined ? { gc: { onError: opts.onBackgroundError } } : {}),
    });
  }
  try {
    const path = embeddedPath(url);
    mkdirSync(path, { recursive: true });
    return Promise.resolve(EmbeddedStore.open(path));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

function embeddedPath(url: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.*)$/.exec(url);
  if (m === null) {
    if (url.trim() === '') throw new Error(`empty store URL; supported: ${SUPPORTED}`);
    return resolve(url);
  }
  const scheme = (m[1] as string).toLowerCase();
  const rest = m[2] as string;
  if (scheme !== 'lmdb') throw new Error(`unsupported store URL scheme '${scheme}://' in '${url}'; supported: ${SUPPORTED}`);
  if (rest === '') throw new Error(`store URL '${url}' has no path; supported: ${SUPPORTED}`);
  return resolve(rest);
}
