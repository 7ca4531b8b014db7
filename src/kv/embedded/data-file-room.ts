/**
 * Disk blocks for the data file ahead of the pages LMDB will write next.
 *
 * With the redo log on, LMDB runs with WRITEMAP: a write transaction changes its pages in the
 * shared memory map instead of writing a copy of each with one pwrite() at commit, which took
 * 13-20 % of the CPU of a single-row write (ARCHITECTURE.md "Durability"). LMDB then sizes the
 * data file to the whole map with ftruncate(), a sparse file, so the first store into a page of a
 * hole needs a disk block, and on a full disk the kernel answers that page fault with SIGBUS:
 * the process dies where a commit should have failed. So before each write batch the store calls
 * `ensure(bytes)`, which keeps blocks allocated (posix_fallocate, through the add-on function
 * scripts/lmdb-addon-functions.mjs adds) from the start of the file up to the last page in use
 * plus `bytes` (an upper bound of what the batch can add) plus up to 64 MiB ahead (a quarter of
 * the free space when that is less, at least 1 MiB); when the disk cannot give them, ensure() throws ENOSPC with the file's path and the
 * commit fails with 1021 before LMDB touches anything. LMDB takes new pages from its free lists
 * first (blocks it wrote before) and only then past the last page; the reserve also covers other
 * processes' batches between a check and the batch it guards. Blocks never go past the file's
 * size (the map's): LMDB cannot write there.
 *
 * Worked example: 4 KiB pages, last page 25,599 (100 MiB in use), a commit of 3 mutations of
 * ~200 bytes: bound = 3 × (2 × 4096 + 200 + 32) + 16 × 4096 ≈ 90 KiB. With 105 MiB allocated,
 * 100 MiB + 90 KiB + 8 MiB (the low water) is past it, so with 10 GiB free blocks up to
 * 100 MiB + 90 KiB + 64 MiB are allocated; with 2 MiB free, up to 100 MiB + 90 KiB + 1 MiB.
 */
import { closeSync, fstatSync, openSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { getSystemErrorName } from 'node:util';
import type { Mutation } from '../kv.js';
import { runKeyLength, runLength, runValueLength, type KeyRun } from '../key-run.js';
import type { AddonFunctions } from './lmdb-build.js';

/** Below this much allocated ahead of need, allocate more. */
const LOW_WATER = 8 * 1024 * 1024;
/** At most this much is allocated ahead at once (a quarter of the free space if that is less)... */
const STEP = 64 * 1024 * 1024;
/** ...but at least this much: other processes' batches and small writes between checks. */
const MARGIN = 1024 * 1024;

export class DataFileRoom {
  private readonly fd: number;
  /** Blocks are allocated for [0, allocatedTo) by this process (0: none asked for yet). */
  private allocatedTo = 0;

  constructor(
    private readonly file: string,
    private readonly pageSize: number,
    private readonly addon: AddonFunctions,
  ) {
    this.fd = openSync(file, 'r+');
  }

  /** Upper bound of the bytes of new pages one commit of `mutations` (and `run`) can add to the file. */
  boundOf(mutations: readonly Mutation[], run?: KeyRun): number {
    let bytes = 16 * this.pageSize;
    for (const m of mutations) bytes += 2 * this.pageSize + m.key.length + (m.op === 'put' ? m.value.length : 0) + 32;
    if (run !== undefined) bytes += runLength(run) * (2 * this.pageSize + runKeyLength(run) + runValueLength(run) + 32);
    return bytes;
  }

  /** Upper bound for `count` writes of at most `bytesEach` bytes (replays, range deletes). */
  boundOfWrites(count: number, bytesEach: number): number {
    return 16 * this.pageSize + count * (2 * this.pageSize + bytesEach);
  }

  /** Allocates blocks for `bytes` more past the last page in use; throws ENOSPC (or the errno) if it cannot. */
  ensure(bytes: number): void {
    const used = (this.addon.lastPgno() + 1) * this.pageSize;
    if (used + bytes + LOW_WATER <= this.allocatedTo) return;
    // Ahead of need by a quarter of the free space, between MARGIN and STEP: a nearly full disk
    // keeps room for the redo log, and the blocks LMDB needs are still asked for.
    const ahead = Math.min(STEP, Math.max(MARGIN, Math.floor(freeBytes(this.file) / 4)));
    const target = Math.min(fstatSync(this.fd).size, used + bytes + ahead);
    if (target <= this.allocatedTo) return;
    const rc = this.addon.fallocate(this.fd, this.allocatedTo, target - this.allocatedTo);
    if (rc !== 0) throw allocationError(rc, this.file);
    this.allocatedTo = target;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function freeBytes(file: string): number {
  try {
    const s = statfsSync(dirname(file));
    return s.bavail * s.bsize;
  } catch {
    return 0;
  }
}

/** A Node-style system error (mapWriteError reads errno, syscall and path). */
function allocationError(rc: number, path: string): Error {
  const name = rc > 0 ? getSystemErrorName(-rc) : 'EIO';
  const text = name === 'ENOSPC' ? 'no space left on device' : name === 'EDQUOT' ? 'disk quota exceeded' : 'cannot allocate disk blocks';
  return Object.assign(new Error(`${name}: ${text}, fallocate '${path}'`), { errno: -(rc > 0 ? rc : 5), code: name, syscall: 'fallocate', path });
}
