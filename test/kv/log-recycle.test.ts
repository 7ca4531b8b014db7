/**
 * Reuse of redo log files (src/kv/embedded/log-recycle.ts): which file the checkpointer keeps as
 * the spare, and how the next generation takes it. That records written into a reused file read
 * back without the old ones is in redo-log.test.ts; recovery from such files in redo-recovery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepSpare, SPARE_NAME, takeSpare } from '../../src/kv/embedded/log-recycle.js';
import { logFileName } from '../../src/kv/embedded/redo-log.js';
import { encodeChained, encodeRecord, type RedoRecord } from '../../src/kv/embedded/redo-record.js';
import { tempDir } from './backends.js';

const mark: RedoRecord = { kind: 'mark', base: 3n };

function withDir(body: (dir: string) => void): void {
  const dir = tempDir('shale-recycle-');
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Log files of generations 1..3 holding chained records (or unchained ones for `unchained`). */
function logs(dir: string, unchained: bigint[] = []): string[] {
  return [1n, 2n, 3n].map((gen) => {
    const path = logFileName(dir, gen);
    writeFileSync(path, unchained.includes(gen) ? encodeRecord(mark) : encodeChained(mark, 7));
    return path;
  });
}

describe('redo log file reuse', () => {
  it('keeps the newest chained file as the spare and hands the others back for deletion', () => {
    withDir((dir) => {
      const files = logs(dir);
      expect(keepSpare(dir, files, 0)).toEqual(files.slice(0, 2));
      expect(readdirSync(dir).sort()).toEqual(['redo-spare', 'redo.1', 'redo.2']);
      // A spare already there: every file goes.
      expect(keepSpare(dir, files.slice(0, 2), 0)).toEqual(files.slice(0, 2));
    });
  });

  it('keeps no spare of unchained records, on a file system short of space, or of nothing', () => {
    withDir((dir) => {
      const files = logs(dir, [3n]);
      expect(keepSpare(dir, files, 0)).toEqual(files);
      expect(keepSpare(dir, files.slice(0, 2), Number.MAX_SAFE_INTEGER)).toEqual(files.slice(0, 2));
      expect(keepSpare(dir, [], 0)).toEqual([]);
      expect(existsSync(join(dir, SPARE_NAME))).toBe(false);
    });
  });

  it('cuts a spare larger than 64 MiB down to 64 MiB', () => {
    withDir((dir) => {
      const files = logs(dir);
      truncateSync(files[2] as string, 100 * 1024 * 1024);
      keepSpare(dir, files, 0);
      expect(statSync(join(dir, SPARE_NAME)).size).toBe(64 * 1024 * 1024);
    });
  });

  it("the next generation takes the spare under its own name, once", () => {
    withDir((dir) => {
      expect(takeSpare(dir, logFileName(dir, 4n))).toBe(false);
      keepSpare(dir, logs(dir), 0);
      const size = statSync(join(dir, SPARE_NAME)).size;
      closeSync(openSync(logFileName(dir, 5n), 'w'));
      expect(takeSpare(dir, logFileName(dir, 5n))).toBe(false); // that generation's file exists already
      expect(takeSpare(dir, logFileName(dir, 4n))).toBe(true);
      expect(statSync(logFileName(dir, 4n)).size).toBe(size);
      expect(existsSync(join(dir, SPARE_NAME))).toBe(false);
      expect(takeSpare(dir, logFileName(dir, 6n))).toBe(false);
    });
  });
});
