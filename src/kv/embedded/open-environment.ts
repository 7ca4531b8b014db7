/**
 * Opens the LMDB environment of an embedded store: the three databases, lmdb-js's add-on
 * functions (lmdb-build.ts) and, with the redo log on, LMDB's WRITEMAP with the blocks it needs
 * allocated ahead (data-file-room.ts).
 */
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import type { EmbeddedDbs } from './commit-apply.js';
import { DataFileRoom } from './data-file-room.js';
import { addonFunctions, lmdbHasOpenFix, type AddonFunctions } from './lmdb-build.js';
import type { EmbeddedStoreOptions } from './embedded-options.js';
import { nativeApplier } from './native-apply.js';

export interface OpenedEnvironment {
  readonly root: RootDatabase<Buffer, string>;
  readonly dbs: EmbeddedDbs;
  readonly addon: AddonFunctions | undefined;
  /** Set when LMDB runs with WRITEMAP (the redo log on and the add-on built by ShaleDB). */
  readonly room: DataFileRoom | undefined;
}

export function openEnvironment(path: string, opts: EmbeddedStoreOptions, logged: boolean, maxReaders: number): OpenedEnvironment {
  // WRITEMAP lets an OS crash leave any page written since the last sync, which only the redo
  // log's recovery repairs, and it needs fallocate from the add-on to fail on a full disk.
  const writemap = logged && lmdbHasOpenFix();
  const root = open<Buffer, string>({
    path,
    // lmdb-js would otherwise treat a path with an extension ("shale.data") as the file itself.
    noSubdir: false,
    maxDbs: 8,
    maxReaders,
    mapSize: opts.mapSize ?? 1024 * 1024 * 1024,
    // lmdb-js 3.5's event-turn batching leaves a promise of its own without a handler; when a
    // write fails (disk full) that rejection would crash the process. Concurrent commits
    // still share one write transaction and one fsync without it.
    eventTurnBatching: false,
    // With the redo log a commit is durable once its log record is fsync'd (recovery.ts).
    ...(logged ? { noSync: true, overlappingSync: false } : {}),
    ...(writemap ? { useWritemap: true } : {}),
  });
  const opened = {
    data: root.openDB<Buffer, Uint8Array>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' }),
    meta: root.openDB<Buffer, string>({ name: 'meta', encoding: 'binary' }),
    tombs: root.openDB<Buffer, Uint8Array>({ name: 'tombs', keyEncoding: 'binary', encoding: 'binary' }),
  };
  const addon = addonFunctions(root);
  const dbs: EmbeddedDbs = { ...opened, applier: addon === undefined ? undefined : nativeApplier(root, opened, addon.applyOps) };
  if (!writemap) return { root, dbs, addon, room: undefined };
  if (addon === undefined) throw new Error(`${path}: lmdb's add-on lacks ShaleDB's functions (run node scripts/build-lmdb.mjs)`);
  const pageSize = (root.getStats() as { pageSize?: unknown }).pageSize;
  const room = new DataFileRoom(join(path, 'data.mdb'), typeof pageSize === 'number' ? pageSize : 4096, addon);
  room.ensure(0);
  return { root, dbs, addon, room };
}
