import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import {
  chainSeed,
  committedChain,
  decodeChained,
  decodeRecords,
  encodeChained,
  encodeRecord,
  isChainedLog,
  recordCrc,
  type DbName,
  type RedoOp,
  type RedoRecord,
  type RunPuts,
} from '../../src/kv/embedded/redo-record.js';
import { runMutations } from '../../src/kv/key-run.js';
import { radixOrder } from '../../src/util/index.js';

type WritesRecord = RedoRecord & { kind: 'writes' };

/** A record as plain data (keys and values as number arrays), for toEqual. */
type PlainOp = { db: DbName; op: 'put' | 'remove'; key: number[]; value?: number[] };
type PlainRecord = { kind: 'writes'; base: bigint; ops: PlainOp[] } | { kind: 'mark'; base: bigint };

function plainOp(op: RedoOp): PlainOp {
  return op.op === 'put'
    ? { db: op.db, op: 'put', key: Array.from(op.key), value: Array.from(op.value) }
    : { db: op.db, op: 'remove', key: Array.from(op.key) };
}

function plain(rec: RedoRecord): PlainRecord {
  return rec.kind === 'writes' ? { kind: 'writes', base: rec.base, ops: rec.ops.map(plainOp) } : { kind: 'mark', base: rec.base };
}

const put = (db: DbName, key: string, value: number[]): RedoOp => ({
  db,
  op: 'put',
  key: Buffer.from(key),
  value: Uint8Array.from(value),
});
const remove = (db: DbName, key: string): RedoOp => ({ db, op: 'remove', key: Buffer.from(key) });
const writes = (base: bigint, ...ops: RedoOp[]): WritesRecord => ({ kind: 'writes', base, ops });
const mark = (base: bigint): RedoRecord => ({ kind: 'mark', base });
/** A writes record told apart from others on the same base by the key it puts. */
const tagged = (base: bigint, tag: string): WritesRecord => writes(base, put('data', tag, [1]));
/** The tags of a chain built from `tagged` records. */
const tags = (chain: readonly WritesRecord[]): string[] =>
  chain.map((r) => Buffer.from((r.ops[0] as RedoOp).key).toString('latin1'));

/** Record boundaries (end offsets) of `recs` encoded back to back, and the bytes. */
function layout(recs: readonly RedoRecord[]): { buf: Buffer; ends: number[] } {
  const parts = recs.map(encodeRecord);
  const ends: number[] = [];
  let at = 0;
  for (const p of parts) ends.push((at += p.length));
  return { buf: Buffer.concat(parts), ends };
}

const opArb: fc.Arbitrary<RedoOp> = fc.oneof(
  fc.record({
    db: fc.constantFrom<DbName>('data', 'meta', 'tombs'),
    op: fc.constant('put' as const),
    key: fc.uint8Array({ minLength: 1, maxLength: 40 }),
    value: fc.uint8Array({ minLength: 0, maxLength: 60 }),
  }),
  fc.record({
    db: fc.constantFrom<DbName>('data', 'meta', 'tombs'),
    op: fc.constant('remove' as const),
    key: fc.uint8Array({ minLength: 1, maxLength: 40 }),
  }),
);
const baseArb = fc.bigInt({ min: 0n, max: 2n ** 40n });
const recordArb: fc.Arbitrary<RedoRecord> = fc.oneof(
  fc.record({ kind: fc.constant('writes' as const), base: baseArb, ops: fc.array(opArb, { minLength: 0, maxLength: 5 }) }),
  fc.record({ kind: fc.constant('mark' as const), base: baseArb }),
);

const BASE_7 = [0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
const ONE_PUT = [
  0x01, 0x00, 0x00, 0x00, // one op
  0x00, 0x00, 0x01, 0x00, 0x6b, // db data, put, key length 1, "k"
  0x02, 0x00, 0x00, 0x00, 0x01, 0x02, // value length 2, 01 02
];

/** A record's hex: `body` behind its length and crc32. */
function framed(body: Buffer): string {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([head, body]).toString('hex');
}

describe('redo record encoding', () => {
  it('encodes the worked example of the file comment byte for byte', () => {
    const body = Buffer.from([0x01, ...BASE_7, ...ONE_PUT]); // kind: writes
    // The file comment says "17 00 00 00 | crc32 of the 23 body bytes", but the body it lists
    // (and the layout it documents) is 24 = 0x18 bytes.
    expect(body.length).toBe(24);
    const encoded = encodeRecord(writes(7n, put('data', 'k', [1, 2])));
    expect(encoded.toString('hex')).toBe(framed(body));
    expect(encoded.readUInt32LE(0)).toBe(0x18);
    const decoded = decodeRecords(encoded);
    expect(decoded.tornAt).toBeUndefined();
    expect(decoded.records.map(plain)).toEqual([{ kind: 'writes', base: 7n, ops: [{ db: 'data', op: 'put', key: [0x6b], value: [1, 2] }] }]);
  });

  it('encodes the chained worked example of the file comment byte for byte; a file reads as far as it chains', () => {
    // kind: writes, chained; then prev: the crc field 0x11223344
    const body = Buffer.from([0x03, ...BASE_7, 0x44, 0x33, 0x22, 0x11, ...ONE_PUT]);
    expect(body.length).toBe(0x1c);
    const encoded = encodeChained(writes(7n, put('data', 'k', [1, 2])), 0x11223344);
    expect(encoded.toString('hex')).toBe(framed(body));
    expect(isChainedLog(encoded)).toBe(true);
    expect(isChainedLog(encodeRecord(mark(1n)))).toBe(false);
    // Generation 5's file: two records chained from its seed, then one chained from elsewhere.
    const first = encodeChained(writes(1n, put('data', 'a', [1])), chainSeed(5n));
    const second = encodeChained(mark(2n), recordCrc(first));
    const stray = encodeChained(writes(2n, put('data', 'b', [2])), recordCrc(first));
    const file = Buffer.concat([first, second, stray]);
    expect(decodeChained(file, 5n).map(plain)).toEqual([plain(writes(1n, put('data', 'a', [1]))), plain(mark(2n))]);
    expect(decodeChained(file, 6n)).toEqual([]);
  });

  it('encodes a mark as a 9-byte body and a remove without a value', () => {
    const m = encodeRecord(mark(0x0102030405n));
    expect(m.length).toBe(8 + 9);
    expect(m.readUInt32LE(0)).toBe(9);
    expect(m.readUInt32LE(4)).toBe(crc32(m.subarray(8)));
    expect(m.subarray(8).toString('hex')).toBe('020504030201000000');
    const r = encodeRecord(writes(1n, remove('tombs', 'ab')));
    expect(r.subarray(8 + 13).toString('hex')).toBe('020102006162'); // db tombs, remove, length 2, "ab"
    expect(r.readUInt32LE(0)).toBe(13 + 6);
  });

  it('refuses a key longer than 65535 bytes', () => {
    const key = new Uint8Array(0x10000);
    expect(() => encodeRecord(writes(1n, { db: 'data', op: 'remove', key }))).toThrow(/key of 65536 bytes/);
    expect(encodeRecord(writes(1n, { db: 'data', op: 'remove', key: key.subarray(1) })).readUInt32LE(0)).toBe(13 + 4 + 0xffff);
  });

  it('decodes any sequence of encoded records back to the same records (property)', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 8 }), (recs) => {
        const { buf } = layout(recs);
        const out = decodeRecords(buf);
        expect(out.tornAt).toBeUndefined();
        expect(out.records.map(plain)).toEqual(recs.map(plain));
      }),
      { numRuns: 300 },
    );
  });
});

describe('redo records with a key run', () => {
  /**
   * A run over records with distinct key parts of one width and, half the time, values of their
   * own (valueWidth > 0) instead of one value for all, in radix order, with a random window.
   */
  const runArb = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 4 })).chain(([width, valueWidth]) =>
    fc
      .record({
        keys: fc.uniqueArray(fc.uint8Array({ minLength: width, maxLength: width }), { maxLength: 30, selector: (r) => Buffer.from(r).toString('hex') }),
        values: fc.array(fc.uint8Array({ minLength: valueWidth, maxLength: valueWidth }), { minLength: 30, maxLength: 30 }),
        prefix: fc.uint8Array({ maxLength: 12 }),
        value: fc.uint8Array({ maxLength: 20 }),
        header: fc.uint8Array({ maxLength: 9 }),
        cut: fc.tuple(fc.nat(), fc.nat()),
      })
      .map(({ keys, values, prefix, value, header, cut }): RunPuts => {
        const stride = width + valueWidth;
        const records = new Uint8Array(keys.length * stride);
        keys.forEach((k, i) => {
          records.set(k, i * stride);
          records.set(values[i] as Uint8Array, i * stride + width);
        });
        const from = keys.length === 0 ? 0 : cut[0] % (keys.length + 1);
        const to = from + (keys.length === 0 ? 0 : cut[1] % (keys.length - from + 1));
        const order = radixOrder(records, stride, keys.length);
        return { run: { prefix, records, width, valueWidth, order, from, to, value: valueWidth > 0 ? new Uint8Array(0) : value }, header };
      }),
  );

  it('decodes to the record\'s ops followed by a put of every run key, chained or not (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 4 }), runArb, baseArb, (ops, run, base) => {
        const rec: WritesRecord = { kind: 'writes', base, ops, run };
        const puts = runMutations(run.run).map((m): RedoOp => ({ db: 'data', op: 'put', key: m.key, value: m.op === 'put' ? Buffer.concat([run.header, m.value]) : new Uint8Array(0) }));
        const expected = plain({ kind: 'writes', base, ops: [...ops, ...puts] });
        expect(decodeRecords(encodeRecord(rec)).records.map(plain)).toEqual([expected]);
        const gen = 3n;
        const seed = chainSeed(gen);
        expect(decodeChained(encodeChained(rec, seed), gen).map(plain)).toEqual([expected]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('redo record torn tails', () => {
  const three: RedoRecord[] = [
    writes(5n, put('data', 'alpha', [1, 2, 3]), remove('tombs', 'beta')),
    mark(6n),
    writes(6n, put('meta', 'logSeq', [7, 0, 0, 0, 0, 0, 0, 0]), put('data', 'gamma', [])),
  ];

  it('every truncation decodes to the records that end within it, tornAt at the first incomplete one', () => {
    const { buf, ends } = layout(three);
    expect(ends[2]).toBe(buf.length);
    for (let L = 0; L < buf.length; L++) {
      const out = decodeRecords(buf.subarray(0, L));
      const complete = ends.filter((e) => e <= L).length;
      expect(out.records.map(plain), `length ${L}`).toEqual(three.slice(0, complete).map(plain));
      const boundary = L === 0 || ends.includes(L);
      expect(out.tornAt, `length ${L}`).toBe(boundary ? undefined : complete === 0 ? 0 : ends[complete - 1]);
    }
  });

  it('truncating random record sequences anywhere keeps exactly the complete records (property)', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 5 }), fc.nat(), (recs, cut) => {
        const { buf, ends } = layout(recs);
        const L = cut % (buf.length + 1);
        const out = decodeRecords(buf.subarray(0, L));
        const complete = ends.filter((e) => e <= L).length;
        expect(out.records.map(plain)).toEqual(recs.slice(0, complete).map(plain));
        const last = complete === 0 ? 0 : (ends[complete - 1] as number);
        expect(out.tornAt).toBe(last === L ? undefined : last);
      }),
      { numRuns: 300 },
    );
  });

  it('a damaged byte anywhere in the last record (header or body) drops just that record', () => {
    const { buf, ends } = layout(three);
    const start = ends[1] as number;
    for (let at = start; at < buf.length; at++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const bad = Buffer.from(buf);
        bad[at] = (bad[at] as number) ^ mask;
        const out = decodeRecords(bad);
        // A damaged length byte may make the record look cut short instead of failing its checksum;
        // either way reading stops at the record's start.
        expect(out.tornAt, `byte ${at} ^ ${mask}`).toBe(start);
        expect(out.records.map(plain), `byte ${at} ^ ${mask}`).toEqual(three.slice(0, 2).map(plain));
      }
    }
  });

  it('a damaged first record stops reading there, losing the records after it', () => {
    const { buf } = layout(three);
    const bad = Buffer.from(buf);
    bad[10] = (bad[10] as number) ^ 0x40;
    expect(decodeRecords(bad)).toEqual({ records: [], tornAt: 0 });
  });

  it('rejects well-checksummed bodies that are not a valid record', () => {
    const frame = (body: Buffer): Buffer => {
      const head = Buffer.alloc(8);
      head.writeUInt32LE(body.length, 0);
      head.writeUInt32LE(crc32(body), 4);
      return Buffer.concat([head, body]);
    };
    const good = encodeRecord(mark(3n));
    const cases: Array<[string, Buffer]> = [
      ['unknown kind', frame(Buffer.from('030300000000000000', 'hex'))],
      ['mark with trailing bytes', frame(Buffer.from('02030000000000000000', 'hex'))],
      ['body shorter than kind + base', frame(Buffer.from('0203000000000000', 'hex'))],
      ['writes without an op count', frame(Buffer.from('010300000000000000', 'hex'))],
      ['op count larger than the ops', frame(Buffer.from('01030000000000000001000000', 'hex'))],
      ['bytes after the last op', frame(Buffer.from('0103000000000000000000000000', 'hex'))],
      ['unknown db', frame(Buffer.from('0103000000000000000100000003010100' + '61', 'hex'))],
      ['unknown op', frame(Buffer.from('0103000000000000000100000000020100' + '61', 'hex'))],
      ['key past the body', frame(Buffer.from('0103000000000000000100000000010500' + '61', 'hex'))],
      ['value past the body', frame(Buffer.from('0103000000000000000100000000000100' + '61' + '05000000' + '01', 'hex'))],
    ];
    for (const [name, bytes] of cases) {
      const out = decodeRecords(Buffer.concat([good, bytes, good]));
      expect(out.records.map(plain), name).toEqual([{ kind: 'mark', base: 3n }]);
      expect(out.tornAt, name).toBe(good.length);
    }
    // The frame itself is sound: the same helper around a valid body decodes.
    const valid = frame(Buffer.from('0103000000000000000100000000010100' + '61', 'hex'));
    expect(decodeRecords(valid).records.map(plain)).toEqual([{ kind: 'writes', base: 3n, ops: [{ db: 'data', op: 'remove', key: [0x61] }] }]);
  });
});

describe('committedChain', () => {
  it('returns a simple chain from the checkpoint sequence', () => {
    const recs = [tagged(5n, 'a'), tagged(6n, 'b'), tagged(7n, 'c')];
    const chain = committedChain(recs, 5n);
    expect(chain.map((r) => r.base)).toEqual([5n, 6n, 7n]);
    expect(tags(chain)).toEqual(['a', 'b', 'c']);
    expect(chain[0]).toBe(recs[0]);
  });

  it('drops records superseded by a later record on a lower or equal base', () => {
    const recs = [tagged(5n, 'a'), tagged(6n, 'b'), tagged(7n, 'c'), tagged(6n, 'b2'), tagged(7n, 'c2')];
    const chain = committedChain(recs, 5n);
    expect(chain.map((r) => r.base)).toEqual([5n, 6n, 7n]);
    expect(tags(chain)).toEqual(['a', 'b2', 'c2']);
    expect(chain[1]).toBe(recs[3]);
    expect(chain[2]).toBe(recs[4]);
  });

  it('drops the records a mark says did not commit', () => {
    const chain = committedChain([tagged(5n, 'a'), tagged(6n, 'b'), tagged(7n, 'c'), mark(6n)], 5n);
    expect(chain.map((r) => r.base)).toEqual([5n]);
    expect(tags(chain)).toEqual(['a']);
    // A mark on the sequence everything reached is a no-op; one on the checkpoint's drops everything.
    expect(tags(committedChain([tagged(5n, 'a'), tagged(6n, 'b'), mark(7n)], 5n))).toEqual(['a', 'b']);
    expect(committedChain([tagged(5n, 'a'), tagged(6n, 'b'), mark(5n)], 5n)).toEqual([]);
    // Writes after a mark continue from it.
    expect(tags(committedChain([tagged(5n, 'a'), tagged(6n, 'b'), mark(6n), tagged(6n, 'b2')], 5n))).toEqual(['a', 'b2']);
  });

  it('keeps a trailing record nothing superseded', () => {
    const recs = [tagged(5n, 'a'), tagged(6n, 'b'), tagged(6n, 'b2')];
    expect(tags(committedChain(recs, 5n))).toEqual(['a', 'b2']);
    expect(tags(committedChain([tagged(9n, 'only')], 9n))).toEqual(['only']);
  });

  it('throws on a gap in the chain or a record before the checkpoint', () => {
    expect(() => committedChain([tagged(6n, 'a')], 5n)).toThrow(/sequence 6 does not follow sequence 5/);
    expect(() => committedChain([tagged(5n, 'a'), tagged(7n, 'c')], 5n)).toThrow(/sequence 7 does not follow sequence 6/);
    expect(() => committedChain([tagged(5n, 'a'), mark(7n)], 5n)).toThrow(/does not follow/);
    expect(() => committedChain([tagged(4n, 'a')], 5n)).toThrow(/sequence 4 precedes the checkpoint's 5/);
    expect(() => committedChain([tagged(5n, 'a'), tagged(6n, 'b'), tagged(4n, 'x')], 5n)).toThrow(/precedes/);
    expect(() => committedChain([mark(4n)], 5n)).toThrow(/precedes/);
  });

  it('returns [] for no records', () => {
    expect(committedChain([], 5n)).toEqual([]);
    expect(committedChain([], 0n)).toEqual([]);
  });

  it('recovers exactly the committed writes of a simulated log (property)', () => {
    // Events of a simulated store: a batch of k child transactions that commits, one whose
    // records are logged but that then fails, or a mark of the committed sequence.
    const eventArb = fc.oneof(
      fc.record({ t: fc.constant('commit' as const), k: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ t: fc.constant('fail' as const), k: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ t: fc.constant('mark' as const) }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1000n }), fc.array(eventArb, { maxLength: 20 }), (startSeq, events) => {
        let seq = startSeq;
        let n = 0;
        const log: RedoRecord[] = [];
        let committed: WritesRecord[] = [];
        let pending: WritesRecord[] = [];
        for (const e of events) {
          pending = [];
          if (e.t === 'mark') {
            log.push(mark(seq));
            continue;
          }
          const batch: WritesRecord[] = [];
          for (let i = 0; i < e.k; i++) batch.push(tagged(seq + BigInt(i), `r${n++}`));
          log.push(...batch);
          if (e.t === 'commit') {
            committed = [...committed, ...batch];
            seq += BigInt(e.k);
          } else {
            pending = batch;
          }
        }
        // A failed batch at the very end is kept (nothing shows it did not commit).
        expect(tags(committedChain(log, startSeq))).toEqual(tags([...committed, ...pending]));
      }),
      { numRuns: 300 },
    );
  });
});
