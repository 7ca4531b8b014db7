import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Store } from './kv.js';
import { EmbeddedStore, lmdbHasOpenFix, openError, type EmbeddedStoreOptions } from './embedded/index.js';
import { EtcdStore } from './etcd/index.js';

const SUPPORTED = "'lmdb://<path>[?map-size=<n>[KiB|MiB|GiB]]', a bare directory path, or 'etcd://host:port[,host:port...][/prefix]'";

export interface OpenStoreOptions {
  /**
   * A key the caller reads at the start of nearly every transaction (the catalog's schema
   * version). Backends with remote reads fetch it together with the start timestamp.
   */
  readonly hotKey?: Uint8Array;
  /** Told about failures of background work (GC rounds, failing embedded-store writes); the store keeps going. */
  readonly onBackgroundError?: (what: string, err: unknown) => void;
  /** Embedded store: told once when a write has not finished for a minute, or for 5 s after a free-list fault (write-watchdog.ts). */
  readonly onStuckWrite?: (ageMs: number) => void;
  /** Embedded store: told after it recovered from a reboot / OS crash, with the transactions replayed from its redo log. */
  readonly onRecovered?: (replayed: number) => void;
}

/**
 * Opens the store named by `url`: `lmdb://<path>` or a bare directory path (created with
 * mkdir -p) selects the embedded LMDB store; `etcd://host:port,...[/prefix]` an etcd v3
 * cluster (the optional prefix is a key namespace). Any other `scheme://` is rejected with an
 * Error naming the supported forms. `lmdb://` URLs take options as a query:
 * `lmdb:///var/lib/shale?map-size=8MiB` sets LMDB's initial map size (lmdb-js enlarges the map
 * as the data grows; the disk is the real limit), `checkpoint-ms=5000` the least time between
 * two checkpoints (embedded/checkpointer.ts).
 */
export function openStore(url: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (/^etcd:\/\//i.test(url.trim())) {
    return EtcdStore.open(url.trim(), {
      ...(opts.hotKey !== undefined ? { hotKey: opts.hotKey } : {}),
      ...(opts.onBackgroundError !== undefined ? { gc: { onError: opts.onBackgroundError } } : {}),
    });
  }
  try {
    const { path, options } = embeddedPath(url);
    try {
      mkdirSync(path, { recursive: true });
    } catch (err) {
      throw openError(path, err);
    }
    const { onBackgroundError, onStuckWrite, onRecovered } = opts;
    return Promise.resolve(
      EmbeddedStore.open(path, {
        ...options,
        ...(onBackgroundError !== undefined ? { onBackgroundError } : {}),
        ...(onStuckWrite !== undefined ? { onStuckWrite } : {}),
        ...(onRecovered !== undefined ? { onRecovered } : {}),
      }),
    );
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * Opens and closes the store once, in this process alone: `serve --workers` calls it before
 * starting the workers, because an embedded store's recovery after a reboot (redo log replay,
 * embedded/recovery.ts) must not run in two processes at once. A no-op for etcd.
 */
export async function recoverStore(url: string, opts: OpenStoreOptions = {}): Promise<void> {
  if (/^etcd:\/\//i.test(url.trim())) return;
  const store = await openStore(url, opts);
  await store.close();
}

/**
 * Throws unless `url`'s store may be opened by several processes at once (`serve --workers`):
 * etcd always; the embedded store only with lmdb's add-on built with ShaleDB's fix
 * (embedded/lmdb-build.ts), since with the prebuilt one a process opening the store while
 * another commits could make that commit vanish.
 */
export function assertSharedOpenSafe(url: string): void {
  if (/^etcd:\/\//i.test(url.trim()) || lmdbHasOpenFix()) return;
  throw new Error(
    'several processes on one embedded store need lmdb built with ShaleDB\'s fix (with the prebuilt add-on a process ' +
      'opening the store while another commits can lose that commit): run `node scripts/build-lmdb.mjs` ' +
      '(needs python3, make and g++; `npm install` runs it), or serve with --workers 1',
  );
}

function embeddedPath(url: string): { path: string; options: EmbeddedStoreOptions } {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.*)$/.exec(url);
  if (m === null) {
    if (url.trim() === '') throw new Error(`empty store URL; supported: ${SUPPORTED}`);
    return { path: resolve(url), options: {} };
  }
  const scheme = (m[1] as string).toLowerCase();
  const [rest = '', query] = (m[2] as string).split(/\?(.*)/s, 2);
  if (scheme !== 'lmdb') throw new Error(`unsupported store URL scheme '${scheme}://' in '${url}'; supported: ${SUPPORTED}`);
  if (rest === '') throw new Error(`store URL '${url}' has no path; supported: ${SUPPORTED}`);
  return { path: resolve(rest), options: query === undefined ? {} : embeddedOptions(url, query) };
}

/** `map-size=8MiB&checkpoint-ms=5000` -> EmbeddedStoreOptions. */
function embeddedOptions(url: string, query: string): EmbeddedStoreOptions {
  let options: EmbeddedStoreOptions = {};
  for (const [name, value] of new URLSearchParams(query)) {
    if (name === 'map-size') options = { ...options, mapSize: byteSize(value, url) };
    else if (name === 'checkpoint-ms') options = { ...options, checkpointMs: milliseconds(value, url) };
    else throw new Error(`unknown option '${name}' in store URL '${url}'; lmdb:// URLs take map-size and checkpoint-ms`);
  }
  return options;
}

/** A whole number of milliseconds, 0 included. */
function milliseconds(text: string, url: string): number {
  const ms = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(ms)) throw new Error(`bad checkpoint-ms '${text}' in store URL '${url}': use a whole number of milliseconds, e.g. 5000 (0: only at open and close)`);
  return ms;
}

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** `8MiB`, `512k`, `1073741824` -> bytes (binary multiples). */
export function byteSize(text: string, url = text): number {
  const m = /^\s*(\d+)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = UNITS[(m?.[2] ?? '').toLowerCase()];
  const bytes = m === null || unit === undefined ? NaN : Number(m[1]) * unit;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new Error(`bad map-size '${text}' in store URL '${url}': use e.g. 64MiB or 1GiB`);
  return bytes;
}
