import { describe, expect, it } from 'vitest';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LogFile, RedoLog, logFileName } from '../../src/kv/embedded/redo-log.js';
import { decodeRecords, encodeRecord } from '../../src/kv/embedded/redo-record.js';
import { tempDir } from './backends.js';

const rec = (base: bigint): Buffer => encodeRecord({ kind: 'writes', base, ops: [{ db: 'data', op: 'put', key: Buffer.from(`k${base}`), value: Buffer.from('v') }] });

describe('redo log files (one process)', () => {
  it('appends records in order, and every waiter of a grouped fdatasync is answered', async () => {
    const dir = tempDir('shale-redolog-');
    const log = new RedoLog(dir);
    try {
      const appended = [0n, 1n, 2n, 3n, 4n].map((b) => log.append(1n, rec(b)));
      await Promise.all(appended.map((a) => a.file.sync(a.count)));
      const { records, tornAt } = decodeRecords(readFileSync(logFileName(dir, 1n)));
      expect(tornAt).toBeUndefined();
      expect(records.map((r) => r.base)).toEqual([0n, 1n, 2n, 3n, 4n]);
    } finally {
      log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an append starts the fdatasync itself: no commit has to ask for it', async () => {
    const dir = tempDir('shale-redolog-');
    const log = new RedoLog(dir);
    try {
      // A write batch's callbacks append in one job; nobody calls sync() here.
      const appended = [0n, 1n, 2n].map((b) => log.append(1n, rec(b)));
      const file = appended[0]?.file;
      expect(file).toBeDefined();
      if (file === undefined) return;
      expect(file.syncedCount).toBe(0);
      const deadline = Date.now() + 5000;
      while (file.syncedCount < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(file.syncedCount).toBe(3);
      // Later waiters are answered from what is already synced.
      await Promise.all(appended.map((a) => a.file.sync(a.count)));
    } finally {
      log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a commit that appended before a generation switch and syncs after it is still answered (no fdatasync on a closed fd)', async () => {
    const dir = tempDir('shale-redolog-');
    const log = new RedoLog(dir);
    const warnings: unknown[] = [];
    const onUncaught = (err: unknown): void => void warnings.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const before = log.append(1n, rec(0n));
      // The next transaction logs into generation 2: generation 1's file is retired (and closed once synced).
      const after = log.append(2n, rec(1n));
      await before.file.sync(before.count);
      await after.file.sync(after.count);
      await new Promise((r) => setTimeout(r, 20));
      expect(() => before.file.append(rec(9n))).toThrow(/retired/);
      await expect(before.file.sync(before.count)).resolves.toBeUndefined();
      expect(decodeRecords(readFileSync(logFileName(dir, 1n))).records.map((r) => r.base)).toEqual([0n]);
      expect(decodeRecords(readFileSync(logFileName(dir, 2n))).records.map((r) => r.base)).toEqual([1n]);
      expect(warnings).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failed append or fdatasync throws the OS error with the log file's path", async () => {
    const dir = tempDir('shale-redolog-');
    try {
      const path = join(dir, 'redo.5');
      closeSync(openSync(path, 'w'));
      const failures: unknown[] = [];
      const readOnly = openSync(path, 'r');
      try {
        const reader = new LogFile(5n, path, readOnly, (err) => failures.push(err));
        expect(() => reader.append(rec(0n))).toThrow(expect.objectContaining({ code: 'EBADF', path }));
      } finally {
        closeSync(readOnly);
      }
      // fdatasync of a character device fails with EINVAL (a closed fd could be reused meanwhile).
      const device = openSync('/dev/null', 'a');
      try {
        const unsyncable = new LogFile(5n, path, device, (err) => failures.push(err));
        await expect(unsyncable.sync(1)).rejects.toMatchObject({ code: 'EINVAL', path });
      } finally {
        closeSync(device);
      }
      expect(failures).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
