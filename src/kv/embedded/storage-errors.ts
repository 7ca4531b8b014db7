/**
 * Failures of the LMDB files turned into errors a client or an operator can act on.
 *
 * Writes: lmdb-js rejects every transaction of a failed write batch with 'Commit failed (see
 * commitError for details)' and the OS / LMDB error in a `commitError` promise. LMDB aborts the
 * whole write transaction (the meta page is written last), so nothing of the batch is applied
 * and the environment stays usable. The client gets:
 *   - 1021 ER_DISK_FULL    ENOSPC / EDQUOT, or EIO (LMDB's "short write") while the file
 *                          system has (almost) no space left;
 *   - 1114 ER_STORAGE_FULL MDB_MAP_FULL (lmdb-js grows the map by itself, so in practice only
 *                          when it cannot);
 *   - 1180 ER_ERROR_DURING_COMMIT any other I/O error (EROFS, EACCES, EIO ...).
 * The same codes apply to a failed append to the redo log (a Node system error carrying the log
 * file's `path`). Each message names the file and the OS error and says the transaction was
 * rolled back.
 * Example: "Disk full (/data/data.mdb: No space left on device (errno 28), 0 bytes free; the
 * transaction was rolled back); waiting for someone to free some space...".
 *
 * Start-up: a data directory that cannot be created or opened for writing gives an Error
 * naming the directory, the OS error and what to fix.
 */
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { SqlError } from '../../errors/index.js';

const EACCES = 13;
const ENOTDIR = 20;
const EROFS = 30;
const EPERM = 1;
const EIO = 5;
const ENOSPC = 28;
const EDQUOT = 122;
const MDB_MAP_FULL = -30792;
const MDB_NOTFOUND = -30798;
const MDB_BAD_VALSIZE = -30781;
const MDB_PROBLEM = -30779;
/** Below this much free space an EIO from a write is taken for a full file system. */
const NEARLY_FULL_BYTES = 1024 * 1024;

export interface WriteFailure {
  /** What the caller should throw. */
  readonly error: unknown;
  /** True when it is a failure of the store's files (worth one log line), not a caller's error. */
  readonly storage: boolean;
}

/** The OS / LMDB error behind a failed lmdb-js write batch (its `commitError`), else `err` itself. */
export async function writeCause(err: unknown): Promise<unknown> {
  const inner = (err as { commitError?: unknown } | null)?.commitError;
  return inner instanceof Promise ? inner.then(() => err, (e: unknown) => e) : err;
}

/**
 * Waits before each retry of a write batch that failed with a retryable LMDB fault
 * (isRetryableWriteFailure below): 6 attempts over ~0.6 s. lmdb-js's LMDB fork caches a free-list position
 * per process and drops it only when the shared transaction id moved past what this process
 * expects, so an immediate retry can meet the same stale position: in a harness run
 * (oltp_write_only, 32 threads, two workers) four attempts within 7 ms all failed. Waiting lets
 * the other processes commit (or go quiet), after which the cache is dropped.
 */
export const RETRY_DELAYS_MS = [5, 15, 45, 135, 405];
export const BATCH_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * True for a failed write batch that is worth running again: lmdb-js 3.5's own free-list code
 * (its LMDB fork reuses free pages with a cached cursor range) now and then fails a batch under
 * concurrent writers with "Invalid zero size key" / MDB_BAD_VALSIZE, MDB_NOTFOUND ("Attempting to
 * delete free-space record") or MDB_PROBLEM, an open upstream bug (HarperFast/harper#686, #689).
 * The batch is aborted as a whole and the next one succeeds. The store validates key sizes itself
 * before writing, so these codes never come from a caller's key.
 */
export function isRetryableWriteFailure(cause: unknown): boolean {
  const code = errnoOf(cause);
  return code === MDB_BAD_VALSIZE || code === MDB_NOTFOUND || code === MDB_PROBLEM;
}

/** Maps an error from an lmdb-js write transaction; other errors pass through unchanged. */
export async function mapWriteError(err: unknown, dir: string, url: string): Promise<WriteFailure> {
  const cause = await writeCause(err);
  const errno = errnoOf(cause);
  if (errno === undefined || !(cause instanceof Error)) return { error: err, storage: false };
  const path = (cause as { path?: unknown }).path;
  const file = typeof path === 'string' ? path : join(dir, 'data.mdb');
  const rolledBack = 'the transaction was rolled back';
  if (errno === MDB_MAP_FULL) return { error: SqlError.of('ER_STORAGE_FULL', `${url} (${cause.message}; ${rolledBack})`), storage: true };
  const free = await freeBytes(dir);
  const freeText = free === undefined ? '' : `, ${free} bytes free`;
  if (errno === ENOSPC || errno === EDQUOT || (errno === EIO && free !== undefined && free < NEARLY_FULL_BYTES)) {
    const what = errno === EIO ? `short write (${cause.message}, errno ${errno}): the file system is full` : `${cause.message} (errno ${errno})`;
    return { error: SqlError.of('ER_DISK_FULL', `${file}: ${what}${freeText}; ${rolledBack}`), storage: true };
  }
  return { error: SqlError.of('ER_ERROR_DURING_COMMIT', errno, `${cause.message} writing ${file}; ${rolledBack}`), storage: true };
}

/** Why the store in `dir` cannot be opened, with what to fix. */
export function openError(dir: string, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const errno = errnoOf(err) ?? -(((err as { errno?: unknown }).errno as number | undefined) ?? 0);
  const code = (err as { code?: unknown }).code;
  let hint = 'the data directory must be a writable directory';
  if (errno === EACCES || errno === EPERM || code === 'EACCES' || code === 'EPERM') hint = 'the data directory is not writable by this user: fix its owner or mode';
  else if (errno === EROFS || code === 'EROFS') hint = 'the data directory is on a read-only file system';
  else if (errno === ENOTDIR || code === 'ENOTDIR' || code === 'EEXIST') hint = 'the data directory path is not a directory';
  else if (errno === ENOSPC || code === 'ENOSPC') hint = 'the disk is full';
  return new Error(`cannot open the embedded store in ${dir}: ${message}; ${hint}`, { cause: err });
}

/**
 * The errno (or negative LMDB code) lmdb-js puts in `code`, or the errno of a Node system error
 * (`errno` negative, `syscall` set, e.g. a redo-log write); undefined for other errors.
 */
function errnoOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; errno?: unknown; syscall?: unknown } | null;
  const code = e?.code;
  if (typeof code === 'number' && code !== 0) return code;
  const errno = e?.errno;
  return typeof errno === 'number' && errno < 0 && typeof e?.syscall === 'string' ? -errno : undefined;
}

async function freeBytes(dir: string): Promise<number | undefined> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}
