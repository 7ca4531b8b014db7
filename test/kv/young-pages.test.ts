/**
 * LMDB reusing "young pages" (scripts/lmdb-young-pages.mjs): while an old read transaction is
 * held (the checkpointer's), pages written after it and freed again are reused as soon as no
 * reader holds a snapshot they are in. Checked on lmdb-js directly, opened as the embedded store
 * opens it: the file stays small under a held reader, and no reader's view is ever overwritten,
 * whether it is the old one, one opened in between, or the newest; child transactions that abort
 * after allocating and freeing pages leave nothing behind.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Transaction } from 'lmdb';
import { describe, expect, it } from 'vitest';
import { getFastIn } from '../../src/kv/embedded/lmdb-snapshot.js';
import { tempDir } from './backends.js';

const KEYS = 20_000;
const ROUNDS = 300;
const COMMITS_PER_ROUND = 6;
const PUTS_PER_COMMIT = 6;

const keyOf = (i: number): Buffer => Buffer.from(`key-${String(i).padStart(6, '0')}`);
const valueOf = (i: number, version: number): Buffer => Buffer.from(`${i}:${version}:`.padEnd(120, '.'));

/** A deterministic pseudo-random sequence (a test must not depend on Math.random's luck). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

interface HeldReader {
  readonly txn: Transaction;
  readonly versions: Map<number, number>;
  readonly until: number;
}

describe('LMDB reuses pages born after the oldest reader', () => {
  it('keeps the file small under a held reader and every reader sees its own snapshot', async () => {
    const dir = tempDir('shale-young-');
    const root = open({ path: dir, noSync: true, overlappingSync: false, maxReaders: 126 });
    const db = root.openDB<Buffer, Buffer>('data', { keyEncoding: 'binary', encoding: 'binary' });
    try {
      await root.transaction(() => {
        for (let i = 0; i < KEYS; i++) db.put(keyOf(i), valueOf(i, 0));
      });
      const fileSize = (): number => statSync(join(dir, 'data.mdb')).size;
      const pin = root.useReadTransaction();
      const sizeAtPin = fileSize();
      const versions = new Map<number, number>();
      const held: HeldReader[] = [];
      const rand = lcg(7);
      let aborted = 0;
      let released = 0;
      let growth = 0;
      const sample = Array.from({ length: KEYS }, (_, i) => i).filter((i) => i % 13 === 0);
      /** How many sampled keys `txn` (undefined: a fresh read) does not see at `expected`'s versions. */
      const wrong = (txn: Transaction | undefined, expected: (i: number) => number): number =>
        sample.filter((i) => {
          // getFastIn returns lmdb-js's shared buffer: its `length` says how much of it is the value.
          const got = txn === undefined ? db.getBinary(keyOf(i)) : getFastIn(db, keyOf(i), { transaction: txn });
          return got === undefined || !got.subarray(0, got.length).equals(valueOf(i, expected(i)));
        }).length;
      for (let round = 0; round < ROUNDS; round++) {
        // Several commits in one lmdb-js batch (child transactions of one write transaction);
        // every fifth writes and then throws, so its child transaction aborts.
        const commits = Array.from({ length: COMMITS_PER_ROUND }, (_, c) => {
          const keys = Array.from({ length: PUTS_PER_COMMIT }, () => Math.floor(rand() * KEYS));
          const fails = (round * COMMITS_PER_ROUND + c) % 5 === 0;
          const done = db.childTransaction(() => {
            for (const k of keys) db.put(keyOf(k), valueOf(k, round + 1));
            if (fails) throw new Error('abort this child');
          });
          return done.then(
            () => keys.forEach((k) => versions.set(k, round + 1)),
            () => void aborted++,
          );
        });
        await Promise.all(commits);
        // The second half: readers opened in between, each held for 1 to 60 rounds, then checked
        // and released (the first half measures the file's growth with only the old reader held).
        for (const r of held.filter((h) => h.until === round)) {
          expect(wrong(r.txn, (i) => r.versions.get(i) ?? 0)).toBe(0);
          r.txn.done();
          held.splice(held.indexOf(r), 1);
          released++;
        }
        if (round === ROUNDS / 2) growth = fileSize() - sizeAtPin;
        if (round >= ROUNDS / 2 && round % 5 === 0) held.push({ txn: root.useReadTransaction(), versions: new Map(versions), until: round + 1 + Math.floor(rand() * 60) });
      }
      expect(aborted).toBe((ROUNDS * COMMITS_PER_ROUND) / 5);
      expect(wrong(pin, () => 0)).toBe(0);
      for (const r of held) expect(wrong(r.txn, (i) => r.versions.get(i) ?? 0)).toBe(0);
      expect(wrong(undefined, (i) => versions.get(i) ?? 0)).toBe(0);
      expect(released).toBeGreaterThan(20);
      // The first half (150 rounds of 6 child commits, 720 of them kept): without reuse every page
      // copy is a new page (22 MB of growth with lmdb-js's own build), with young pages 3 MB. A
      // build whose young pages ignored the readers fails the snapshot checks above instead.
      expect(growth).toBeLessThan(8 * 1024 * 1024);
      pin.done();
      for (const r of held) r.txn.done();
    } finally {
      await root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // Child transactions under a held reader once leaked both young-page list buffers (~3 KB) per
  // commit: 20,000 commits grew the process by ~70 MB (the pages of an LMDB file are file-backed,
  // not anonymous, so they do not count here).
  it('a committed child transaction leaves no memory behind while a reader is held', () => {
    const dir = tempDir('shale-young-mem-');
    try {
      const out = execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'child-commit-memory.ts'), dir, '40000'], { encoding: 'utf8' });
      const { growthKiB, commits } = JSON.parse(out.trim().split('\n').pop() as string) as { growthKiB: number; commits: number };
      expect(commits).toBe(20_000);
      expect(growthKiB).toBeLessThan(16 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

