import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Store } from './kv.js';
import { EmbeddedStore } from './embedded/index.js';

const SUPPORTED = "'lmdb://<path>' or a bare directory path";

/**
 * Opens the store named by `url`: `lmdb://<path>` or a bare directory path (created with
 * mkdir -p) selects the embedded LMDB store. Any other `scheme://` is rejected with an Error
 * naming the supported forms.
 */
export function openStore(url: string): Promise<Store> {
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
