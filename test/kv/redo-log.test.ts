import { describe, expect, it } from 'vitest';
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LogFile, RedoLog, logFileName, type Appended } from '../../src/kv/embedded/redo-log.js';
import { decodeChained, encodeRecord, type RedoRecord } from '../../src/kv/embedded/redo-record.js';
import { tempDir } from './backends.js';

const record = (base: bigint): RedoRecord => ({ kind: 'writes', base, ops: [{ db: 'data', op: 'put', key: Buffer.from(`k${base}`), value: Buffer.from('v') }] });
const rec = (base: bigint): Buffer => encodeRecord(record(base));

/** Appends as transactions do, keeping the tail LMDB would keep (per generation). */
function appender(log: RedoLog): (gen: bigint, base: bigint) => Appended {
  const tails = new Map<bigint, Buffer>();
  return (gen, base) => {
    const a = log.append(gen, tails.get(gen), record(base));
    tails.set(gen, a.tail);
    return a;
  };
}

const bases = (dir: string, gen: bigint): bigint[] => decodeChained(readFileSync(logFileName(dir, gen)), gen).map((r) => r.base);

describe('redo log files (one process)', () => {
  it('appends records in order, and every waiter of a grouped fdatasync is answered', async () => {
    const dir = tempDir('shale-redolog-');
    const log = new RedoLog(dir);
    try {
      const append = appender(log);
      const appended = [0n, 1n, 2n, 3n, 4n].map((b) => append(1n, b));
      await Promise.all(appended.map((a) => a.file.sync(a.count)));
      expect(bases(dir, 1n)).toEqual([0n, 1n, 2n, 3n, 4n]);
    } finally {
      log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('encodes every record into one reused buffer, and each reads back whole, large after small and small after large', async () => {
    const dir = tempDir('shale-redolog-');
    const log = new RedoLog(dir);
    try {
      const sized = (base: bigint, bytes: number): RedoRecord => ({ kind: 'writes', base, ops: [{ db: 'data', op: 'put', key: Buffer.from(`k${base}`), value: Buffer.alloc(bytes, Number(base)) }] });
      const sizes = [200_000, 10, 300_000, 5, 100_000];
      let tail: Buffer | undefined;
      const views: Buffer[] = [];
      for (const [i, bytes] of sizes.entries()) {
        const a = log.append(1n, tail, sized(BigInt(i + 1), bytes));
        tail = a.tail;
        views.push(a.bytes);
        await a.file.sync(a.count);
      }
      // The views share memory: the later records were written over the earlier ones' bytes.
      expect(views[1]?.buffer).toBe(views[0]?.buffer);
      const records = decodeChained(readFileSync(logFileName(dir, 1n)), 1n);
      expect(records.map((r) => r.base)).toEqual([1n, 2n, 3n, 4n, 5n]);
      records.forEach((r, i) => {
        const op = r.kind === 'writes' ? r.ops[0] : undefined;
        expect(op?.op === 'put' ? [op.value.length, op.value[0]] : undefined).toEqual([sizes[i], i + 1]);
      });
    } finally {
      log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes in place: a reused file's old records never read as the new generation's", async () => {
    const dir = tempDir('shale-redolog-');
    const first = new RedoLog(dir);
    const second = new RedoLog(dir);
    try {
      const old = appender(first);
      const written = [0n, 1n, 2n, 3n, 4n, 5n].map((b) => old(1n, b));
      await Promise.all(written.map((a) => a.file.sync(a.count)));
      first.close();
      const size = statSync(logFileName(dir, 1n)).size;
      renameSync(logFileName(dir, 1n), logFileName(dir, 2n));
      expect(bases(dir, 2n)).toEqual([]);
      const append = appender(second);
      const now = [6n, 7n].map((b) => append(2n, b));
      await Promise.all(now.map((a) => a.file.sync(a.count)));
      expect(bases(dir, 2n)).toEqual([6n, 7n]);
      // Written into the old file's blocks: it did not grow, and its later old records are still there.
      expect(statSync(logFileName(dir, 2n)).size).toBe(size);
    } finally {
      first.close();
      second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the records of a batch that did not commit are overwritten, and one left behind does not chain', async () => {
    const dir = tempDir('shale-redolog-');
    const log = new RedoLog(dir);
    try {
      const committed = log.append(1n, undefined, record(10n));
      // A batch logs two records, then fails: LMDB keeps the tail after record 10.
      const failed1 = log.append(1n, committed.tail, record(11n));
      const failed2 = log.append(1n, failed1.tail, record(12n));
      // The next transaction writes at that tail again, a record as long as the failed first one,
      // so the failed second one starts exactly where it ends.
      const next = log.append(1n, committed.tail, record(13n));
      expect(next.tail.readBigUInt64BE(8)).toBe(failed1.tail.readBigUInt64BE(8));
      await Promise.all([committed, failed2, next].map((a) => a.file.sync(a.count)));
      expect(bases(dir, 1n)).toEqual([10n, 13n]);
      // Without the chain the failed record would read as the next one.
      const raw = readFileSync(logFileName(dir, 1n));
      const end = Number(next.tail.readBigUInt64BE(8));
      expect(raw.readUInt32LE(end)).toBeGreaterThan(0);
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
      const append = appender(log);
      const appended = [0n, 1n, 2n].map((b) => append(1n, b));
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
      const append = appender(log);
      const before = append(1n, 0n);
      // The next transaction logs into generation 2: generation 1's file is retired (and closed once synced).
      const after = append(2n, 1n);
      await before.file.sync(before.count);
      await after.file.sync(after.count);
      await new Promise((r) => setTimeout(r, 20));
      expect(() => before.file.append(rec(9n), 0)).toThrow(/retired/);
      await expect(before.file.sync(before.count)).resolves.toBeUndefined();
      expect(bases(dir, 1n)).toEqual([0n]);
      expect(bases(dir, 2n)).toEqual([1n]);
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
        expect(() => reader.append(rec(0n), 0)).toThrow(expect.objectContaining({ code: 'EBADF', path }));
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

  it('after a failed fdatasync, a wait for a record it covered fails with that error, and nothing is synced again', async () => {
    const dir = tempDir('shale-redolog-');
    try {
      const path = join(dir, 'redo.6');
      const failures: unknown[] = [];
      // /dev/null takes writes at any offset; its fdatasync fails with EINVAL, as a failing disk's would.
      const device = openSync('/dev/null', 'r+');
      try {
        const file = new LogFile(6n, path, device, (err) => failures.push(err));
        const first = file.append(rec(0n), 0);
        const second = file.append(rec(1n), 100);
        const failed: unknown = await file.sync(first).catch((err: unknown) => err);
        expect(failed).toMatchObject({ code: 'EINVAL', path });
        // A later fdatasync may succeed although the pages the failed one could not write are lost.
        await expect(file.sync(second)).rejects.toBe(failed);
        let thrown: unknown;
        try {
          file.syncNow(second);
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBe(failed);
        expect(failures).toEqual([failed]);
      } finally {
        closeSync(device);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
