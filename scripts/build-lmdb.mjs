#!/usr/bin/env node
/**
 * Builds lmdb-js's native add-on from source with one fix to its bundled LMDB (run by
 * `npm install` / `npm ci` as the postinstall script; safe to run again).
 *
 * The bug: lmdb-js 3.5 bundles LMDB's development branch, whose mdb_env_open2() sets the shared
 * "last committed transaction" (mti_txnid in lock.mdb) from the meta page it read at open, in
 * every process that opens the environment, not only the first. If another process commits
 * between that read and the store, the counter goes back one transaction, and the next write
 * transaction in any process starts from the older meta page: the newer commit, already
 * acknowledged, is silently overwritten (and the free list can hand out its pages twice, which
 * crashes readers). Upstream LMDB fixed it as ITS#9496 ("fix mdb_env_open bug from #8704"). It
 * bites ShaleDB whenever a process opens a data directory that another process is writing:
 * `serve --workers N` start-up and worker restarts (test/kv/open-race.test.ts reproduces it).
 *
 * The fix drops that assignment: the first (exclusive) opener still sets the counter, in
 * mdb_env_share_locks(), from the newest meta page; later openers leave it alone.
 *
 * A second change lets LMDB reuse pages born after the oldest reader ("young pages", see
 * lmdb-young-pages.mjs): with the checkpointer's read transaction held, LMDB otherwise reuses no
 * page for a whole checkpoint interval. A third adds five functions to the add-on
 * (lmdb-addon-functions.mjs): the newest committed transaction id, so the store renews its read
 * transaction only when another process committed since; the last page in use and
 * posix_fallocate, so that with WRITEMAP a full disk fails a commit instead of raising SIGBUS;
 * a range read that copies a run of entries per call; and a commit's writes made in one call
 * from its redo record's bytes. A fourth splits a leaf page after the new key when it continues
 * a run of ascending inserts (lmdb-run-splits.mjs), so that tables loaded side by side in one
 * database fill their pages.
 *
 * node-gyp-build loads build/Release/lmdb.node before the prebuilt binaries, so the fixed build
 * takes over; `build/Release/shaledb-lmdb-fix` records which fixes it carries (checked at run time
 * by src/kv/embedded/lmdb-build.ts). Needs python3, make and a C++ compiler.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ADDON_FUNCTIONS_HUNKS, ADDON_FUNCTIONS_ID } from './lmdb-addon-functions.mjs';
import { RUN_SPLITS_HUNKS, RUN_SPLITS_ID } from './lmdb-run-splits.mjs';
import { YOUNG_PAGES_HUNKS, YOUNG_PAGES_ID } from './lmdb-young-pages.mjs';

const FIX_ID = `its9496-mti-txnid-v1+${YOUNG_PAGES_ID}+${ADDON_FUNCTIONS_ID}+${RUN_SPLITS_ID}`;
const LMDB_VERSION = '3.5.6';
const SOURCE = 'dependencies/lmdb/libraries/liblmdb/mdb.c';
const BROKEN = '\tif (env->me_txns)\n\t\tenv->me_txns->mti_txnid = meta.mm_txnid;\n\n#if MDB_DEBUG';
const FIXED = `\t/* ShaleDB its9496-mti-txnid-v1: a later opener must not move mti_txnid back (see ITS#9496). */\n\n#if MDB_DEBUG`;

function fail(message) {
  process.stderr.write(`build-lmdb: ${message}\n`);
  process.exit(1);
}

/** lmdb's package directory (it exports no package.json: walk up from its entry point). */
function lmdbDir() {
  const entry = createRequire(import.meta.url).resolve('lmdb');
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'lmdb') return dir;
  }
  return fail(`no lmdb package.json above ${entry}`);
}

/** Patches the sources in place (idempotent); fails if a source is not the one the changes were written for. */
function patchSource(dir) {
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  if (version !== LMDB_VERSION) fail(`lmdb ${version} installed, the fix is written for ${LMDB_VERSION}: review it for the new version`);
  const hunks = [{ what: 'ITS#9496', before: BROKEN, after: FIXED }, ...YOUNG_PAGES_HUNKS, ...ADDON_FUNCTIONS_HUNKS, ...RUN_SPLITS_HUNKS];
  for (const file of new Set(hunks.map((h) => h.file ?? SOURCE))) {
    const path = join(dir, file);
    let text = readFileSync(path, 'utf8');
    // Hunks are written with \n; some of lmdb-js's files end their lines with \r\n.
    const eol = (s) => (text.includes('\r\n') ? s.replaceAll('\n', '\r\n') : s);
    for (const hunk of hunks.filter((h) => (h.file ?? SOURCE) === file)) {
      const [what, before, after] = [hunk.what, eol(hunk.before), eol(hunk.after)];
      if (text.includes(after)) continue;
      const at = text.indexOf(before);
      if (at < 0 || text.indexOf(before, at + 1) >= 0) fail(`${path}: the code the change "${what}" replaces was not found exactly once`);
      text = text.slice(0, at) + after + text.slice(at + before.length);
    }
    writeFileSync(path, text);
  }
}

/** node-gyp: npm's own (npm tells lifecycle scripts where it is), else the one bundled with npm. */
function nodeGyp() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm !== undefined && existsSync(fromNpm)) return fromNpm;
  const npmRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const bundled = join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (!existsSync(bundled)) fail('node-gyp not found (install npm >= 7)');
  return bundled;
}

function build(dir) {
  const marker = join(dir, 'build', 'Release', 'shaledb-lmdb-fix');
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === FIX_ID && existsSync(join(dir, 'build', 'Release', 'lmdb.node'))) {
    process.stdout.write(`build-lmdb: ${dir} already built with ${FIX_ID}\n`);
    return;
  }
  patchSource(dir);
  process.stdout.write(`build-lmdb: building lmdb's native add-on with ${FIX_ID} (about 30 s)\n`);
  const args = [nodeGyp(), 'rebuild'];
  // npm may be set to build against local Node headers (no download); node-gyp reads the same setting.
  const nodedir = process.env.npm_config_nodedir ?? npmConfig('nodedir');
  if (nodedir !== undefined) args.push(`--nodedir=${nodedir}`);
  // The compiler's many warnings about lmdb's own code go to a log file, shown only if the build fails.
  const log = join(dir, 'shaledb-build.log');
  try {
    execFileSync(process.execPath, args, { cwd: dir, stdio: ['ignore', openSync(log, 'w'), openSync(log, 'a')] });
  } catch {
    process.stderr.write(readFileSync(log, 'utf8').split('\n').slice(-40).join('\n'));
    fail(`node-gyp rebuild failed (it needs python3, make and g++; log: ${log}); without the fix, processes sharing a data directory can lose commits`);
  }
  writeFileSync(marker, `${FIX_ID}\n`);
  process.stdout.write('build-lmdb: done\n');
}

function npmConfig(key) {
  try {
    const value = execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
    return value === '' || value === 'undefined' || value === 'null' ? undefined : value;
  } catch {
    return undefined;
  }
}

build(lmdbDir());
