/**
 * fast-check arbitraries for the protocol fuzzer: random bytes, invalid UTF-8, mutated SQL,
 * structured-but-broken COM_STMT_EXECUTE / SEND_LONG_DATA / CHANGE_USER payloads, and framing
 * (sequence ids, split points). Every arbitrary yields complete command payloads; the framing
 * is applied by the suites.
 */
import fc from 'fast-check';
import { Command, WireType } from '../../../src/server/constants.js';
import { command, lenencBytes, u16, u32 } from '../../helpers/mysql-packets.js';

export const byte = fc.integer({ min: 0, max: 255 });

/** `arb` once in `oneIn` cases, null otherwise (fc.option's freq is the other way round). */
export const sometimes = <T>(arb: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
export const bytes = (maxLength: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ maxLength });

/** Mostly-invalid UTF-8: lone continuation bytes, overlong and surrogate leads, 0xF5..0xFF. */
export const badUtf8 = fc
  .array(fc.oneof(fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xc3, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xfe, 0xff, 0x27, 0x5c, 0x00), byte), { maxLength: 48 })
  .map((a) => Uint8Array.from(a));

/** Real statements against the fuzz schema (fz.t read-only, fz.s scratch); mutated below. */
export const SQL_CORPUS: readonly string[] = [
  'SELECT 1',
  'SELECT id, v FROM t WHERE id = 1',
  "SELECT * FROM t WHERE v LIKE 'a%' ORDER BY id DESC LIMIT 2",
  "INSERT INTO s (id, v) VALUES (7, 'x')",
  "UPDATE s SET v = 'y' WHERE id = 7",
  'DELETE FROM s WHERE id = 8',
  'SELECT COUNT(*), SUM(x), MAX(d) FROM t GROUP BY v HAVING COUNT(*) > 0',
  "SELECT CAST('2024-01-01' AS DATETIME), 1.5e3, 0x41, _utf8mb4'é', NULL, -9223372036854775808",
  'BEGIN; SELECT 1; COMMIT',
  "SET @a = 'x'; SELECT @a, @@version, DATABASE()",
  "SHOW TABLES; SHOW VARIABLES LIKE 'max%'",
  'EXPLAIN SELECT * FROM t WHERE id IN (1, 2, 3)',
  "SELECT CONCAT(v, '-', id), IFNULL(d, NOW()), ROUND(x, 1) FROM t",
  'SELECT a.id FROM t a JOIN t b ON a.id = b.id WHERE a.x BETWEEN -1 AND 2',
  'SELECT ?, ?',
  "SELECT * FROM t WHERE d > '2023-12-31 23:59:59.999999' OR v IS NULL",
];

const SQL_TOKENS = [
  "'", '"', '`', '(', ')', ',', ';', '?', '/*', '*/', '-- ', '#', '\\', 'NULL', 'SELECT', '0x', '1e999', '-', '@', '@@',
  '\0', 'é', '\uFFFD', ' ', 'X\'', "b'", 'N\'', '.', '*', 'UNION', 'ORDER BY', '((((', '))))',
];

type Mutation = { kind: 'delete' | 'insert' | 'replace' | 'dup' | 'truncate'; at: number; len: number; token: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'replace', 'dup', 'truncate'),
  at: fc.nat(),
  len: fc.integer({ min: 1, max: 8 }),
  token: fc.oneof(fc.constantFrom(...SQL_TOKENS), fc.string({ maxLength: 4 })),
}) as fc.Arbitrary<Mutation>;

function mutate(src: Buffer, muts: readonly Mutation[]): Buffer {
  let b = src;
  for (const m of muts) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1);
    const tok = Buffer.from(m.token, 'utf8');
    if (m.kind === 'delete') b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.len)]);
    else if (m.kind === 'insert') b = Buffer.concat([b.subarray(0, at), tok, b.subarray(at)]);
    else if (m.kind === 'replace') b = Buffer.concat([b.subarray(0, at), tok, b.subarray(at + tok.length)]);
    else if (m.kind === 'dup') b = Buffer.concat([b.subarray(0, at + m.len), b.subarray(at)]);
    else b = b.subarray(0, at);
  }
  return b;
}

/** SQL text: a corpus statement with a few byte-level mutations, random bytes, or invalid UTF-8. */
export const sqlBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...SQL_CORPUS), fc.array(mutation, { maxLength: 4 })).map(([s, m]) => mutate(Buffer.from(s), m)) },
  { weight: 1, arbitrary: bytes(80) },
  { weight: 1, arbitrary: badUtf8 },
);

/** Statements each fuzz connection prepares, in this order (ids 1..n). */
export const PREPARED: readonly string[] = [
  'SELECT ?, ?',
  'INSERT INTO s (id, v, d, x) VALUES (?, ?, ?, ?)',
  "SELECT ? + 1, CONCAT(?, 'x'), ? < NOW(), CAST(? AS DECIMAL(10,2)), ? = 1.5, ? LIKE 'a%'",
  'SELECT 1',
  'SELECT v, d FROM t WHERE id = ?',
  'UPDATE s SET v = ?, d = ? WHERE id = ? OR x > ?',
  'SELECT id FROM t WHERE id IN (?, ?, ?) AND (d > ? OR v = ?) ORDER BY x LIMIT ?',
];
const paramCounts = PREPARED.map((sql) => sql.split('?').length - 1);

export const stmtId = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: PREPARED.length }) },
  { weight: 1, arbitrary: fc.constantFrom(0, PREPARED.length + 1, 0xffffffff) },
  { weight: 1, arbitrary: fc.nat({ max: 0xffffffff }) },
);

const KNOWN_TYPES = Object.values(WireType);
const DECIMALS = [
  '1', '-0.5', '12.50', '.5', '1e3', '1e999999999', '-1E-99999', '1e99999999999999999999', '9'.repeat(70), ' 7 ', '+', 'abc', '',
  // long enough that a super-linear validator shows up as a hang
  `${'9'.repeat(60_000)}x`, `0.${'1'.repeat(60_000)}`,
];

/** A plausible encoding of `type` (often valid, sometimes with out-of-range fields). */
function valueFor(type: number): fc.Arbitrary<Uint8Array> {
  const fixed = (n: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength: n, maxLength: n });
  switch (type) {
    case WireType.TINY: return fixed(1);
    case WireType.SHORT: case WireType.YEAR: return fixed(2);
    case WireType.LONG: case WireType.INT24: case WireType.FLOAT: return fixed(4);
    case WireType.LONGLONG: return fixed(8);
    case WireType.DOUBLE:
      return fc.oneof(fixed(8), fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e308, 5e-324, 1.5).map((d) => {
        const b = Buffer.alloc(8);
        b.writeDoubleLE(d);
        return b;
      }));
    case WireType.DATE: case WireType.DATETIME: case WireType.TIMESTAMP: {
      const plausible = fc
        .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 1_000_000 }))
        .map(([y, mo, d, h, mi, sec, us]) => {
          const b = Buffer.alloc(11);
          b.writeUInt16LE(y, 0);
          b.set([mo, d, h, mi, sec], 2);
          b.writeUInt32LE(us, 7);
          return b;
        });
      return fc.tuple(fc.constantFrom(0, 4, 7, 11, 11, 3, 255), fc.oneof({ weight: 3, arbitrary: plausible }, fixed(11))).map(([n, b]) => Buffer.concat([Buffer.from([n]), b.subarray(0, n)]));
    }
    case WireType.TIME:
      return fc.tuple(fc.constantFrom(0, 8, 12, 12, 5, 200), fixed(12)).map(([n, b]) => Buffer.concat([Buffer.from([n]), b.subarray(0, n)]));
    case WireType.DECIMAL: case WireType.NEWDECIMAL:
      return fc.oneof(fc.constantFrom(...DECIMALS), fc.stringMatching(/^-?\d{0,90}(\.\d{0,40})?([eE][-+]?\d{1,12})?$/)).map((s) => lenencBytes(Buffer.from(s)));
    default:
      return fc.oneof(bytes(40).map(lenencBytes), badUtf8.map(lenencBytes));
  }
}

export interface FuzzParam {
  readonly type: number;
  readonly flags: number;
  readonly isNull: boolean;
  readonly value: Uint8Array;
}

const param: fc.Arbitrary<FuzzParam> = fc
  .oneof({ weight: 12, arbitrary: fc.constantFrom(...KNOWN_TYPES) }, { weight: 1, arbitrary: byte })
  .chain((type) =>
    fc.record({
      type: fc.constant(type),
      flags: fc.oneof(fc.constantFrom(0, 0x80), byte),
      isNull: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      value: fc.oneof(
        { weight: 14, arbitrary: valueFor(type) },
        { weight: 1, arbitrary: bytes(12) },
        // a length prefix promising more than the packet holds
        { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0xfc, 0xff, 0xff]), Buffer.from([0xfd, 1, 0, 1]), Buffer.from([0xfe, 0, 0, 0, 0, 1, 0, 0, 0]), Buffer.from([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Buffer.from([0xfb]), Buffer.from([0xff])) },
      ),
    }),
  );

/**
 * COM_STMT_EXECUTE aimed at the prepared statements: wrong ids, parameter counts that differ from
 * the statement's, NULL bitmaps one byte short or long, new-params-bound 0/1/junk, random types,
 * truncated packets and trailing junk.
 */
export const executePayload: fc.Arbitrary<Uint8Array> = stmtId
  .chain((id) => {
    const n = paramCounts[id - 1];
    return fc.record({
      id: fc.constant(id),
      flags: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: byte }),
      iterations: fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.nat({ max: 0xffffffff }) }),
      // mostly as many parameters as the statement has, sometimes any number
      params: n === undefined
        ? fc.array(param, { maxLength: 9 })
        : fc.oneof({ weight: 5, arbitrary: fc.array(param, { minLength: n, maxLength: n }) }, { weight: 1, arbitrary: fc.array(param, { maxLength: 9 }) }),
      bitmapDelta: fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 }) }),
      bound: fc.oneof({ weight: 12, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: byte }),
      cut: sometimes(fc.nat(), 12),
      trailing: fc.oneof({ weight: 12, arbitrary: fc.constant(new Uint8Array(0)) }, { weight: 1, arbitrary: bytes(16) }),
    });
  })
  .map((e) => {
    const n = e.params.length;
    const bitmap = Buffer.alloc(Math.max(0, ((n + 7) >> 3) + e.bitmapDelta));
    e.params.forEach((p, i) => {
      if (p.isNull && i >> 3 < bitmap.length) bitmap[i >> 3] = (bitmap[i >> 3] as number) | (1 << (i & 7));
    });
    const parts: Uint8Array[] = [u32(e.id), Uint8Array.of(e.flags), u32(e.iterations)];
    if (n > 0) {
      parts.push(bitmap, Uint8Array.of(e.bound));
      if (e.bound !== 0) for (const p of e.params) parts.push(Uint8Array.of(p.type, p.flags));
      for (const p of e.params) if (!p.isNull) parts.push(p.value);
    }
    parts.push(e.trailing);
    const body = Buffer.concat(parts);
    return command(Command.STMT_EXECUTE, e.cut === null ? body : body.subarray(0, e.cut % (body.length + 1)));
  });

/** COM_STMT_SEND_LONG_DATA to known and unknown statements and parameters, sometimes too short. */
export const longDataPayload: fc.Arbitrary<Uint8Array> = fc
  .tuple(stmtId, fc.oneof(fc.integer({ min: 0, max: 6 }), fc.nat({ max: 0xffff })), fc.oneof(bytes(64), badUtf8), sometimes(fc.nat({ max: 7 }), 5))
  .map(([id, paramId, data, cut]) => {
    const p = command(Command.STMT_SEND_LONG_DATA, Buffer.concat([u32(id), u16(paramId), data]));
    return cut === null ? p : p.subarray(0, cut);
  });

/** COM_STMT_CLOSE / COM_STMT_RESET with ids that may be unknown and payloads of any length. */
export const closeOrResetPayload: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.constantFrom(Command.STMT_CLOSE, Command.STMT_RESET), stmtId, fc.integer({ min: 0, max: 8 }), bytes(4))
  .map(([cmd, id, len, junk]) => command(cmd, Buffer.concat([u32(id), junk]).subarray(0, len)));

export const userName = fc.oneof(fc.constantFrom('root', 'nobody', '', 'x'.repeat(300)), fc.string({ maxLength: 12 }));
export const dbName = fc.oneof(fc.constantFrom('', 'fz', 'nope', 'information_schema', 'd'.repeat(100)), fc.string({ maxLength: 12 }));
export const pluginName = fc.oneof(fc.constantFrom('mysql_native_password', 'caching_sha2_password', '', 'sha256_password', 'no_such_plugin'), fc.string({ maxLength: 12 }));

/** COM_CHANGE_USER: structured with odd fields (and possibly truncated), or random bytes. */
export const changeUserPayload: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc
    .record({
      user: userName,
      tokenLen: fc.oneof(fc.constantFrom(0, 20, 32), byte),
      token: bytes(40),
      db: dbName,
      charset: fc.oneof(fc.constantFrom(45, 0, 255, 63), fc.nat({ max: 0xffff })),
      plugin: pluginName,
      cut: sometimes(fc.nat(), 4),
    })
    .map((s) => {
      const body = Buffer.concat([
        Buffer.from(s.user), Uint8Array.of(0), Uint8Array.of(s.tokenLen), s.token.subarray(0, s.tokenLen),
        Buffer.from(s.db), Uint8Array.of(0), u16(s.charset), Buffer.from(s.plugin), Uint8Array.of(0),
      ]);
      return command(Command.CHANGE_USER, s.cut === null ? body : body.subarray(0, s.cut % (body.length + 1)));
    }),
  bytes(48).map((b) => command(Command.CHANGE_USER, b)),
);

/** Any command byte with a random body (unknown commands, junk after PING/STATISTICS/...). */
export const anyCommandPayload: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.oneof(byte, fc.constantFrom(...Object.values(Command), 0x1c, 0x00, 0x05, 0x0c)), bytes(48))
  .map(([cmd, body]) => command(cmd, body));

/** One fuzzed command-phase payload of any kind. */
export const commandPayload: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: sqlBytes.map((s) => command(Command.QUERY, s)) },
  { weight: 1, arbitrary: fc.oneof(dbName.map((d) => Buffer.from(d)), badUtf8, bytes(20)).map((d) => command(Command.INIT_DB, d)) },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom('t', 's', 'nope', 'fz.t', ''), fc.string({ maxLength: 8 })), bytes(8), fc.boolean()).map(([t, w, nul]) => command(Command.FIELD_LIST, Buffer.concat([Buffer.from(t), nul ? Uint8Array.of(0) : new Uint8Array(0), w]))) },
  { weight: 2, arbitrary: sqlBytes.map((s) => command(Command.STMT_PREPARE, s)) },
  { weight: 6, arbitrary: executePayload },
  { weight: 2, arbitrary: longDataPayload },
  { weight: 1, arbitrary: closeOrResetPayload },
  { weight: 1, arbitrary: changeUserPayload },
  { weight: 2, arbitrary: anyCommandPayload },
);

/** Sequence ids: mostly the correct 0, sometimes anything. */
export const commandSeq = fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: byte });

/** Offsets at which to cut a byte stream into separate socket writes. */
export const cuts = fc.array(fc.nat({ max: 4096 }), { maxLength: 6 });
