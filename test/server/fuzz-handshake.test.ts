/**
 * Protocol fuzzing before and during authentication (issue #6): HandshakeResponse41 with random
 * capabilities, users, auth data of every size, unknown plugins, broken connect-attribute
 * lengths, missing databases, byte-level mutations, wrong sequence ids and header lengths, split
 * across TCP writes; garbage instead of a response; huge declared lengths. Every connection must
 * end in OK (then still answer a query), or ERR followed by a close, or a close, within 2 s,
 * never with 1105. Replay: FUZZ_SEED=<seed>; scale: FUZZ_RUNS_SCALE=<factor>.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cap } from '../../src/server/constants.js';
import { CLIENT_CAPS, connectAttrs, frame, frameDeclared, handshakeResponse, nativeToken } from '../helpers/mysql-packets.js';
import { badUtf8, byte, bytes, cuts, dbName, pluginName, userName } from './helpers/fuzz-arbitraries.js';
import { FuzzEnv, HANG_MS, count, fuzzParams, internalErrors, probe, seenSummary } from './helpers/fuzz-harness.js';
import { WireClient, errOf } from './helpers/wire-client.js';

let env: FuzzEnv;

beforeAll(async () => {
  env = await FuzzEnv.start(['CREATE DATABASE fz']);
});

afterAll(async () => {
  if (env === undefined) return; // beforeAll failed and says why
  const growth = await env.finish();
  console.log(`fuzz-handshake: canary ${env.canaryRounds} rounds, slowest ${env.canaryMaxMs} ms; heap +${growth.heapGrowthMb.toFixed(1)} MiB\n  seen: ${seenSummary()}`);
});

/** Capabilities: ours, ours with one bit flipped, real clients', no PROTOCOL_41, SSL unasked, random. */
const caps = fc.oneof(
  { weight: 4, arbitrary: fc.constant(CLIENT_CAPS) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 31 }).map((b) => (CLIENT_CAPS ^ (1 << b)) >>> 0) },
  { weight: 2, arbitrary: fc.constantFrom(0x0006f3cf, 0x00bfa28d, 0x08baf3cf, 0x01bea30a, CLIENT_CAPS & ~Cap.PROTOCOL_41, CLIENT_CAPS | Cap.SSL) },
  { weight: 1, arbitrary: fc.nat({ max: 0xffffffff }) },
);

/** The auth token: the right one for the empty root password, wrong sizes, or random. */
type Token = { kind: 'native' } | { kind: 'bytes'; bytes: Uint8Array };
const token: fc.Arbitrary<Token> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Token>({ kind: 'native' }) },
  { weight: 2, arbitrary: fc.oneof(bytes(40), fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.uint8Array({ minLength: 32, maxLength: 32 })).map((b): Token => ({ kind: 'bytes', bytes: b })) },
);

/** Connect attributes: valid, absent, random, or with lengths that point past the packet. */
const attrs = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 }).map((kv) => connectAttrs(kv)) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  { weight: 1, arbitrary: bytes(24) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      Buffer.from([0xfc, 0xff, 0xff, 1, 0x61]), Buffer.from([0xfd, 0, 0, 1]), Buffer.from([0xfe, 1, 0, 0, 0, 0, 0, 0, 0]),
      Buffer.from([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Buffer.from([0xfb]), Buffer.from([0xff, 0x00]),
      Buffer.from([5, 9, 0x61, 0x62]), Buffer.from([6, 2, 0x61, 0x62, 0xfc, 0xff, 0xff]),
    ),
  },
);

type Mutation = { kind: 'truncate' | 'flip' | 'insert' | 'delete'; at: number; value: number; len: number };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('truncate', 'flip', 'insert', 'delete'),
  at: fc.nat(),
  value: byte,
  len: fc.integer({ min: 1, max: 6 }),
}) as fc.Arbitrary<Mutation>;

function mutate(payload: Buffer, muts: readonly Mutation[]): Buffer {
  let b = payload;
  for (const m of muts) {
    const at = m.at % (b.length + 1);
    if (m.kind === 'truncate') b = b.subarray(0, at);
    else if (m.kind === 'flip' && at < b.length) (b = Buffer.from(b))[at] = m.value;
    else if (m.kind === 'insert') b = Buffer.concat([b.subarray(0, at), Buffer.alloc(m.len, m.value), b.subarray(at)]);
    else if (m.kind === 'delete') b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.len)]);
  }
  return b;
}

const handshakeCase = fc.record({
  caps,
  maxPacket: fc.oneof(fc.constant(0), fc.nat({ max: 0xffffffff })),
  charset: fc.oneof(fc.constantFrom(45, 33, 224, 63, 0, 255), byte),
  user: fc.oneof({ weight: 4, arbitrary: fc.constant(Buffer.from('root')) }, userName.map((u) => Buffer.from(u)), badUtf8),
  token,
  database: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(Buffer.from(''), Buffer.from('fz')) }, dbName.map((d) => Buffer.from(d)), badUtf8),
  plugin: fc.oneof({ weight: 4, arbitrary: fc.constant(Buffer.from('mysql_native_password')) }, pluginName.map((p) => Buffer.from(p)), badUtf8),
  attrs,
  mutations: fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }),
  seq: fc.oneof({ weight: 5, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: byte }),
  /** 0: exact length; > 0 the header claims more than is sent; < 0 less. */
  lengthError: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 0xffffff }) }, { weight: 1, arbitrary: fc.integer({ min: -40, max: -1 }) }),
  switchReply: fc.oneof(fc.constant<Token>({ kind: 'native' }), bytes(40).map((b): Token => ({ kind: 'bytes', bytes: b }))),
  cuts,
});

type Case = typeof handshakeCase extends fc.Arbitrary<infer T> ? T : never;

function tokenBytes(t: Token, scramble: Buffer): Uint8Array {
  return t.kind === 'native' ? nativeToken('', scramble) : t.bytes;
}

/** Drives one connection through the fuzzed handshake; returns a description of a failure, or null. */
async function runHandshake(k: Case): Promise<string | null> {
  const c = await WireClient.connect(env.port);
  try {
    const hello = await c.greeting();
    if (hello === null) return 'no greeting';
    const payload = mutate(
      handshakeResponse({
        caps: k.caps, maxPacket: k.maxPacket, charset: k.charset, user: k.user, token: tokenBytes(k.token, hello.scramble),
        database: k.database, plugin: k.plugin, attrs: k.attrs,
      }),
      k.mutations,
    );
    const input = `seq ${k.seq} length error ${k.lengthError}: ${payload.toString('hex')}`;
    const declared = Math.min(0xffffff, Math.max(0, payload.length + k.lengthError));
    const bytesOut = k.lengthError === 0 ? frame(k.seq, payload) : frameDeclared(declared, k.seq, payload);
    await c.write(bytesOut, k.cuts.map((x) => x % bytesOut.length));
    if (k.lengthError !== 0) {
      c.end();
      return (await c.waitClosed(HANG_MS)) ? null : `not closed after a header/payload mismatch and FIN\n${input}`;
    }
    const errors: string[] = [];
    let expectSeq = (k.seq + 1) & 0xff;
    for (;;) {
      const r = await c.read(HANG_MS);
      if (r === 'closed') {
        count('hs-closed');
        break;
      }
      if (r === 'timeout') return `no reply within ${HANG_MS} ms\n${input}`;
      if (r.seq !== expectSeq) return `reply has sequence id ${r.seq}, expected ${expectSeq}\n${input}`;
      expectSeq = (r.seq + 1) & 0xff;
      const e = errOf(r);
      count(e !== null ? `hs-${e.errno}` : `hs-${r.payload[0] ?? 'empty'}`);
      if (e !== null) {
        errors.push(`${e.errno} ${e.message}`);
        if (!(await c.waitClosed(HANG_MS))) return `still open ${HANG_MS} ms after ERR ${e.errno}\n${input}`;
        break;
      }
      const head = r.payload[0];
      if (head === 0x00) {
        const live = await probe(c);
        if (live.outcome === 'hung') return `${live.detail}\n${input}`;
        errors.push(...live.errors);
        break;
      }
      if (head === 0xfe) {
        c.send(expectSeq, tokenBytes(k.switchReply, r.payload.subarray(r.payload.indexOf(0, 1) + 1, -1)));
        expectSeq = (expectSeq + 1) & 0xff;
      } else if (head !== 0x01) return `unexpected packet ${r.payload.toString('hex')}\n${input}`;
    }
    const internal = internalErrors(errors);
    return internal.length > 0 ? `${internal.join('; ')}\n${input}` : null;
  } finally {
    c.destroy();
  }
}

describe('protocol fuzz: connection phase', () => {
  it('answers every fuzzed HandshakeResponse with OK, ERR + close, or a close', async () => {
    await fc.assert(
      fc.asyncProperty(handshakeCase, async (k) => {
        env.assertHealthy();
        expect(await runHandshake(k)).toBeNull();
        env.assertHealthy();
      }),
      fuzzParams(500),
    );
  });

  it('closes on garbage instead of a HandshakeResponse, sent before or after the greeting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.boolean(), cuts, async (junk, readGreeting, cutAt) => {
        env.assertHealthy();
        const c = await WireClient.connect(env.port);
        try {
          if (readGreeting) await c.greeting();
          await c.write(junk, cutAt.map((x) => x % junk.length));
          c.end();
          expect(await c.waitClosed(HANG_MS), Buffer.from(junk).toString('hex')).toBe(true);
        } finally {
          c.destroy();
        }
      }),
      fuzzParams(300),
    );
  });

  it('closes after a huge declared length once the client gives up (FIN or reset)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 301, max: 0xffffff }), bytes(300), fc.boolean(), async (declared, sent, fin) => {
        env.assertHealthy();
        const c = await WireClient.connect(env.port);
        try {
          await c.greeting();
          await c.write(frameDeclared(declared, 1, sent));
          if (!fin) return;
          c.end();
          expect(await c.waitClosed(HANG_MS)).toBe(true);
        } finally {
          c.destroy();
        }
      }),
      fuzzParams(100),
    );
  });
});
