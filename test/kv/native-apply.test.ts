/**
 * A commit's writes made by the add-on's `shaledbApplyOps` (src/kv/embedded/native-apply.ts)
 * against the same writes made one by one through lmdb-js (`applyWrite`, the path builds without
 * the function take): two environments opened as the store opens its own (WRITEMAP), random
 * batches of puts and removes into all three databases, and the databases' raw contents compared
 * after each batch. Meta's keys are strings, which lmdb-js compares with its own comparator
 * (it reads past a key's end, so a key handed over without zero bytes after it was stored twice).
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import type { RootDatabase } from 'lmdb';
import { openEnvironment, type OpenedEnvironment } from '../../src/kv/embedded/open-environment.js';
import { applyWrite, LoggedWrites } from '../../src/kv/embedded/redo-log.js';
import { radixOrder } from '../../src/util/index.js';
import { DB_NAMES, encodeChained, encodeRecord, type RedoOp } from '../../src/kv/embedded/redo-record.js';
import { tempDir } from './backends.js';

const binaryKeyArb = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 40 }),
  fc.uint8Array({ minLength: 0, maxLength: 6 }).map((tail) => Uint8Array.from([0x74, 0x80, 0, 1, ...tail])),
);
// Meta's names: a few that collide often, of every length modulo 4.
const metaKeyArb = fc.constantFrom('a', 'ab', 'abc', 'abcd', 'commitTs', 'logSeq', 'gcSafePoint', 'logTail', 'logGen');
const opArb: fc.Arbitrary<RedoOp> = fc.oneof(
  fc.record({ db: fc.constantFrom('data' as const, 'tombs' as const), put: fc.boolean(), key: binaryKeyArb, value: fc.uint8Array({ maxLength: 300 }) }),
  fc.record({ db: fc.constant('meta' as const), put: fc.boolean(), key: metaKeyArb.map((s) => Buffer.from(s)), value: fc.uint8Array({ maxLength: 20 }) }),
).map(({ db, put, key, value }) => (put ? { db, op: 'put', key, value } : { db, op: 'remove', key }));

/** Every database's entries, keys and values in hex. */
function contents(root: RootDatabase<Buffer, string>): string[] {
  const out: string[] = [];
  for (const name of DB_NAMES) {
    const raw = root.openDB<Buffer, Buffer>({ name, keyEncoding: 'binary', encoding: 'binary' });
    for (const { key, value } of raw.getRange()) out.push(`${name} ${Buffer.from(key).toString('hex')} ${Buffer.from(value).toString('hex')}`);
  }
  return out;
}

function openBoth(): { native: OpenedEnvironment; plain: OpenedEnvironment; dirs: string[] } {
  const dirs = [tempDir('shale-native-apply-'), tempDir('shale-native-apply-')];
  const [a, b] = dirs.map((dir) => openEnvironment(dir, { mapSize: 1 << 28 }, true, 16));
  if (a === undefined || b === undefined) throw new Error('unreachable');
  return { native: a, plain: b, dirs };
}

function closeBoth(envs: { native: OpenedEnvironment; plain: OpenedEnvironment; dirs: string[] }): void {
  for (const env of [envs.native, envs.plain]) {
    env.room?.close();
    void env.root.close();
  }
  for (const dir of envs.dirs) rmSync(dir, { recursive: true, force: true });
}

describe('native apply of a redo record', () => {
  it('is what the store opened with ShaleDB\'s lmdb-js build uses', () => {
    const envs = openBoth();
    try {
      expect(envs.native.dbs.applier).toBeDefined();
    } finally {
      closeBoth(envs);
    }
  });

  it('leaves the databases as lmdb-js puts and removes do, batch after batch', () => {
    const envs = openBoth();
    const { native, plain } = envs;
    try {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), fc.boolean(), (ops, chained) => {
          const rec = { kind: 'writes' as const, base: 3n, ops };
          const bytes = chained ? encodeChained(rec, 0x11223344) : encodeRecord(rec);
          native.root.transactionSync(() => native.dbs.applier?.applyRecord(bytes));
          plain.root.transactionSync(() => {
            for (const op of ops) applyWrite(plain.dbs, op);
          });
          expect(contents(native.root)).toEqual(contents(plain.root));
        }),
        { numRuns: 150 },
      );
      // The runs above wrote every meta name many times: each is stored once.
      const names = contents(native.root).filter((line) => line.startsWith('meta ')).map((line) => line.split(' ')[1]);
      expect(new Set(names).size).toBe(names.length);
    } finally {
      closeBoth(envs);
    }
  });

  it('writes a key run\'s puts as the one-by-one path does (LoggedWrites.putRun)', () => {
    const envs = openBoth();
    const { native, plain } = envs;
    try {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 12 }).chain((vw) => fc.tuple(fc.constant(vw), fc.uniqueArray(fc.uint8Array({ minLength: 3 + vw, maxLength: 3 + vw }), { minLength: 1, maxLength: 80, selector: (r) => Buffer.from(r.subarray(0, 3)).toString('hex') }))), fc.array(opArb, { maxLength: 5 }), fc.uint8Array({ maxLength: 30 }), fc.uint8Array({ maxLength: 9 }), ([valueWidth, recs], ops, value, header) => {
          // Values of the records' own (valueWidth > 0), or one value for every key.
          const stride = 3 + valueWidth;
          const records = new Uint8Array(recs.length * stride);
          recs.forEach((r, i) => records.set(r, i * stride));
          const run = { prefix: Uint8Array.from([0x74, 0x80]), records, width: 3, valueWidth, order: radixOrder(records, stride, recs.length), from: 0, to: recs.length, value };
          // Ops after the run's keys would meet them in the same databases; keep them in others' key space.
          const others = ops.filter((op) => op.db !== 'data' || op.key[0] !== 0x74);
          for (const [env, dbs] of [
            [native, native.dbs],
            [plain, { ...plain.dbs, applier: undefined }],
          ] as const) {
            env.root.transactionSync(() => {
              const w = new LoggedWrites(dbs, undefined);
              for (const op of others) if (op.db !== 'meta') (op.op === 'put' ? w.put(op.db, op.key, op.value) : w.remove(op.db, op.key));
              w.putRun(run, header);
              w.finish();
            });
          }
          expect(contents(native.root)).toEqual(contents(plain.root));
        }),
        { numRuns: 80 },
      );
    } finally {
      closeBoth(envs);
    }
  });

  it('writes nothing of a malformed record, and refuses to run outside a write transaction', () => {
    const envs = openBoth();
    const { native } = envs;
    try {
      const applier = native.dbs.applier;
      if (applier === undefined) throw new Error('no native applier');
      const ops: RedoOp[] = [
        { db: 'data', op: 'put', key: Buffer.from('k1'), value: Buffer.from('v1') },
        { db: 'data', op: 'put', key: Buffer.from('k2'), value: Buffer.from('v2') },
      ];
      const bytes = encodeRecord({ kind: 'writes', base: 0n, ops });
      // Cut inside the second op's value: the first op is whole, yet nothing may be written.
      const cut = bytes.subarray(0, bytes.length - 1);
      native.root.transactionSync(() => {
        expect(() => applier.applyRecord(cut)).toThrow(/malformed/);
      });
      expect(contents(native.root).filter((line) => line.startsWith('data '))).toEqual([]);
      expect(() => applier.applyRecord(bytes)).toThrow(/no write transaction/);
      native.root.transactionSync(() => applier.applyRecord(bytes));
      expect(contents(native.root).filter((line) => line.startsWith('data '))).toHaveLength(2);
    } finally {
      closeBoth(envs);
    }
  });
});
