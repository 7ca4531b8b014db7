/**
 * Reused redo log files (redo-log.ts). A file written in place into blocks it already has keeps
 * its size, so its `fdatasync` does not also write the inode; so the checkpointer keeps the
 * newest file the data file has caught up with as `redo-spare` instead of deleting it, and the
 * next generation's file is that spare renamed. Its old records chain from the old generation's
 * seed, so they never read as the new generation's (redo-record.ts, decodeChained); a file in the
 * unchained format (written before chaining) is never reused, as its records would read as valid.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readSync, renameSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isChainedLog } from './redo-record.js';

export const SPARE_NAME = 'redo-spare';
/** A spare is cut to this size: a bulk load's huge generation is not kept around. */
const MAX_SPARE_BYTES = 64 * 1024 * 1024;
/** No spare is kept on a file system with less free space than this: the space is worth more. */
const MIN_FREE_BYTES = 1024 * 1024 * 1024;

/** Renames the spare (if there is one) to `path`; false if there is none. The caller fsyncs the directory. */
export function takeSpare(dir: string, path: string): boolean {
  const spare = join(dir, SPARE_NAME);
  if (!existsSync(spare) || existsSync(path)) return false;
  renameSync(spare, path);
  return true;
}

/**
 * Of the log files the data file has caught up with (oldest first), keeps the newest as the spare
 * when there is none, it holds chained records and the file system has `minFree` bytes free (1
 * GiB); returns the files to delete.
 */
export function keepSpare(dir: string, done: readonly string[], minFree = MIN_FREE_BYTES): string[] {
  const newest = done[done.length - 1];
  const spare = join(dir, SPARE_NAME);
  if (newest === undefined || existsSync(spare) || !chainedFile(newest) || freeBytes(dir) < minFree) return [...done];
  if (statSync(newest).size > MAX_SPARE_BYTES) {
    const fd = openSync(newest, 'r+');
    try {
      ftruncateSync(fd, MAX_SPARE_BYTES);
    } finally {
      closeSync(fd);
    }
  }
  renameSync(newest, spare);
  return done.slice(0, -1);
}

function chainedFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    return isChainedLog(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
  } finally {
    closeSync(fd);
  }
}

function freeBytes(dir: string): number {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
}
