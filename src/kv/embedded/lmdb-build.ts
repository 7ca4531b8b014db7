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

/**
 * The fix id scripts/build-lmdb.mjs writes next to the add-on it built: the ITS#9496 fix and
 * the reuse of young pages (scripts/lmdb-young-pages.mjs).
 */
const FIX_ID = 'its9496-mti-txnid-v1+young-pages-v2+reader-txnid-v1';

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

/**
 * `() => id of the newest transaction committed on root's environment by any process`, from the
 * function scripts/lmdb-reader-txnid.mjs adds to the add-on; undefined with the prebuilt binaries.
 */
export function lastTxnIdFunction(root: RootDatabase<Buffer, string>): (() => number) | undefined {
  if (!lmdbHasOpenFix()) return undefined;
  const release = join(packageDir(createRequire(import.meta.url).resolve('lmdb')), 'build', 'Release');
  // The module lmdb-js loaded (require caches it by path): its functions know its EnvWrap layout.
  const addon: unknown = createRequire(import.meta.url)(join(release, 'lmdb.node'));
  const fn: unknown = typeof addon === 'object' && addon !== null ? (addon as Record<string, unknown>)['shaledbLastTxnId'] : undefined;
  const env: unknown = (root as unknown as { env?: unknown }).env;
  const address: unknown = typeof env === 'object' && env !== null ? (env as Record<string, unknown>)['address'] : undefined;
  if (typeof fn !== 'function' || typeof address !== 'number' || address === 0) return undefined;
  const call = fn as (envAddress: number) => unknown;
  return () => {
    const id = call(address);
    return typeof id === 'number' ? id : 0;
  };
}
