/**
 * Whether this process loads lmdb-js's native add-on as scripts/build-lmdb.mjs built it: from
 * source, with the fix for LMDB's ITS#9496 (a process opening the data directory while another
 * commits could make a later write transaction overwrite an acknowledged commit). The prebuilt
 * binaries lmdb-js ships lack the fix; they are safe while one process uses a directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The fix id scripts/build-lmdb.mjs writes next to the add-on it built: the ITS#9496 fix and
 * the reuse of young pages (scripts/lmdb-young-pages.mjs).
 */
const FIX_ID = 'its9496-mti-txnid-v1+young-pages-v2';

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
