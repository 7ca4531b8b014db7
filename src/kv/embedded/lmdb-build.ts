/**
 * Whether this process loads lmdb-js's native add-on as scripts/build-lmdb.mjs built it: from
 * source, with the fix for LMDB's ITS#9496 (a process opening the data directory while another
 * commits could make a later write transaction overwrite an acknowledged commit). The prebuilt
 * binaries lmdb-js ships lack the fix; they are safe while one process uses a directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import type { ApplyOpsFunction } from './native-apply.js';
import type { ScanFunction } from './native-scan.js';

/**
 * The fix id scripts/build-lmdb.mjs writes next to the add-on it built: the ITS#9496 fix, the
 * reuse of young pages (scripts/lmdb-young-pages.mjs), the add-on functions
 * (scripts/lmdb-addon-functions.mjs) and the run splits (scripts/lmdb-run-splits.mjs).
 */
const FIX_ID = 'its9496-mti-txnid-v1+young-pages-v2+addon-functions-v4+run-splits-v1';

export function lmdbHasOpenFix(): boolean {
  // node-gyp-build would skip build/Release for the prebuilt binaries.
  if (process.env['PREBUILDS_ONLY'] !== undefined && process.env['PREBUILDS_ONLY'] !== '') return false;
  const release = join(packageDir(createRequire(import.meta.url).resolve('lmdb')), 'build', 'Release');
  const marker = join(release, 'shaledb-lmdb-fix');
  return existsSync(join(release, 'lmdb.node')) && existsSync(marker) && readFileSync(marker, 'utf8').trim() === FIX_ID;
}

/** The directory of the package.json named "lmdb" above `entry` (the package exports no package.json). */
function packageDir(entry: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'lmdb') return dir;
  }
  throw new Error(`no lmdb package.json above ${entry}`);
}

/** The functions scripts/lmdb-addon-functions.mjs adds to lmdb-js's add-on, bound to one environment. */
export interface AddonFunctions {
  /** Id of the newest transaction committed on the environment by any process. */
  lastTxnId(): number;
  /** The last page number in use (newest meta page), -1 if unknown. */
  lastPgno(): number;
  /** posix_fallocate(fd, offset, length): 0 or the errno. */
  fallocate(fd: number, offset: number, length: number): number;
  /** Copies a run of a range's entries into a buffer (native-scan.ts). */
  readonly scan: ScanFunction;
  /** Makes a redo record's writes in the current write transaction (native-apply.ts). */
  readonly applyOps: ApplyOpsFunction;
}

/** The add-on functions for `root`'s environment; undefined with lmdb-js's prebuilt binaries. */
export function addonFunctions(root: RootDatabase<Buffer, string>): AddonFunctions | undefined {
  if (!lmdbHasOpenFix()) return undefined;
  const release = join(packageDir(createRequire(import.meta.url).resolve('lmdb')), 'build', 'Release');
  // The module lmdb-js loaded (require caches it by path): its functions know its EnvWrap layout.
  const addon: unknown = createRequire(import.meta.url)(join(release, 'lmdb.node'));
  const env: unknown = (root as unknown as { env?: unknown }).env;
  const address = nativeAddress(env);
  const lastTxnId = property(addon, 'shaledbLastTxnId');
  const lastPgno = property(addon, 'shaledbLastPgno');
  const fallocate = property(addon, 'shaledbFallocate');
  const scan = property(addon, 'shaledbScan');
  const applyOps = property(addon, 'shaledbApplyOps');
  const functions = [lastTxnId, lastPgno, fallocate, scan, applyOps];
  if (functions.some((fn) => typeof fn !== 'function')) return undefined;
  if (address === undefined) return undefined;
  const number = (v: unknown, otherwise: number): number => (typeof v === 'number' ? v : otherwise);
  // Typed once here (not through a rest-argument wrapper): lastTxnId runs for every snapshot.
  const ofEnv = (fn: unknown): ((env: number) => unknown) => fn as (env: number) => unknown;
  const txnIdOf = ofEnv(lastTxnId);
  const pgnoOf = ofEnv(lastPgno);
  const allocate = fallocate as (fd: number, offset: number, length: number) => unknown;
  return {
    lastTxnId: () => number(txnIdOf(address), 0),
    lastPgno: () => number(pgnoOf(address), -1),
    fallocate: (fd, offset, length) => number(allocate(fd, offset, length), -1),
    scan: scan as ScanFunction,
    applyOps: applyOps as ApplyOpsFunction,
  };
}

/** The address of lmdb-js's native object behind `db` (its DbiWrap), undefined if it has none. */
export function dbiAddress(db: object): number | undefined {
  return nativeAddress(property(db, 'db'));
}

/** A native wrapper's `address` (lmdb-js's EnvWrap, DbiWrap, TxnWrap), undefined if it has none. */
export function nativeAddress(wrapper: unknown): number | undefined {
  const a = property(wrapper, 'address');
  return typeof a === 'number' && a !== 0 ? a : undefined;
}

function property(object: unknown, name: string): unknown {
  return typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[name] : undefined;
}
