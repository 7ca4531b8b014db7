/**
 * Protocol fuzzing of the framing layer (issue #6): valid command pipelines cut into random TCP
 * writes and sent with arbitrary sequence ids must be answered exactly (the server re-assembles
 * every split and numbers each response from the command's sequence id + 1); a header that
 * declares more than is sent must end in a close once the client hangs up; a packet over
 * max_allowed_packet must be answered with 1153 and a close. Replay: FUZZ_SEED=<seed>.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK, DEFAULT_MAX_ALLOWED_PACKET } from '../../src/server/constants.js';
import type { Packet } from '../../src/server/packet-decoder.js';
import { bin, comExecute, comInitDb, comPing, comPrepare, comQuery, comStmtClose, command, frame, frameDeclared } from '../helpers/mysql-packets.js';
import { bytes, cuts } from './helpers/fuzz-arbitraries.js';
import { FuzzEnv, HANG_MS, fuzzParams, isOk } from './helpers/fuzz-harness.js';
import { WireClient, errOf } from './helpers/wire-client.js';

let env: FuzzEnv;

beforeAll(async () => {
  env = await FuzzEnv.start(['CREATE DATABASE fz']);
});

afterAll(async () => {
  if (env === undefined) return; // beforeAll failed and says why
  const growth = await env.finish();
  console.log(`fuzz-framing: canary ${env.canaryRounds} rounds, slowest ${env.canaryMaxMs} ms; heap +${growth.heapGrowthMb.toFixed(1)} MiB`);
});

async function loggedIn(): Promise<WireClient> {
  const c = await WireClient.connect(env.port);
  const reply = await c.login();
  if (!isOk(reply)) throw new Error('login failed');
  return c;
}

/**
 * One well-formed command and the exact response it must get: `answer` checks the packets
 * (first one numbered from the command's seq + 1); `packets` is how many to read (0: none).
 */
interface Step {
  readonly payload: Buffer;
  readonly packets: number;
  readonly expect: (ps: readonly Packet[]) => string | null;
}

const textRow = (v: string): Buffer => Buffer.concat([Buffer.from([v.length]), Buffer.from(v)]);

const ok = (ps: readonly Packet[]): string | null => (ps[0]?.payload[0] === 0 ? null : 'expected OK');

/** Steps are generated in the context of one connection: prepared ids are known in advance. */
function buildSteps(kinds: ReadonlyArray<{ kind: number; n: bigint }>): Step[] {
  const steps: Step[] = [];
  let nextStmt = 1;
  let open: number | null = null;
  for (const { kind, n } of kinds) {
    switch (kind) {
      case 0:
        steps.push({ payload: comPing(), packets: 1, expect: ok });
        break;
      case 1: {
        const want = String(n);
        steps.push({
          payload: comQuery(`SELECT ${want}`),
          packets: 5,
          expect: (ps) => (ps[3]?.payload.equals(textRow(want)) ? null : `expected row ${want}`),
        });
        break;
      }
      case 2:
        steps.push({ payload: comInitDb('fz'), packets: 1, expect: ok });
        break;
      case 3: {
        // PREPARE_OK, 1 param definition + EOF, 1 column + EOF
        const id = nextStmt++;
        steps.push({ payload: comPrepare('SELECT CAST(? AS SIGNED) AS v'), packets: 5, expect: (ps) => (ps[0]?.payload.readUInt32LE(1) === id ? null : `expected statement ${id}`) });
        open = id;
        break;
      }
      case 4: {
        if (open === null) break;
        const want = Buffer.alloc(8);
        want.writeBigInt64LE(BigInt.asIntN(64, n));
        steps.push({
          payload: comExecute({ stmtId: open, params: [bin.longlong(n)] }),
          packets: 5,
          // binary row: 0x00, NULL bitmap (1 byte), then the value in the column's encoding
          expect: (ps) => {
            const row = ps[3]?.payload;
            return row !== undefined && row.length >= 2 && row.includes(want) ? null : `expected binary row with ${n}, got ${row?.toString('hex')}`;
          },
        });
        break;
      }
      default:
        if (open !== null) steps.push({ payload: comStmtClose(open), packets: 0, expect: () => null });
        open = null;
    }
  }
  return steps;
}

const stepKinds = fc.array(fc.record({ kind: fc.integer({ min: 0, max: 5 }), n: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) }), { minLength: 1, maxLength: 8 });
const seqs = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 255 })), { minLength: 8, maxLength: 8 });

describe('protocol fuzz: framing', () => {
  it('answers pipelined commands exactly, whatever the TCP split points and sequence ids', async () => {
    await fc.assert(
      fc.asyncProperty(stepKinds, seqs, fc.array(fc.nat({ max: 600 }), { maxLength: 12 }), async (kinds, seq, cutAt) => {
        env.assertHealthy();
        const steps = buildSteps(kinds);
        const c = await loggedIn();
        try {
          const stream = Buffer.concat(steps.map((s, i) => frame(seq[i] ?? 0, s.payload)));
          await c.write(stream, cutAt.map((x) => x % Math.max(1, stream.length)));
          for (const [i, s] of steps.entries()) {
            const got: Packet[] = [];
            for (let k = 0; k < s.packets; k++) {
              const r = await c.read(HANG_MS);
              if (typeof r === 'string') throw new Error(`step ${i}: ${r} after ${got.length} packets`);
              const e = errOf(r);
              if (e !== null) throw new Error(`step ${i}: ERR ${e.errno} ${e.message}`);
              const wantSeq = ((seq[i] ?? 0) + 1 + k) & 0xff;
              if (r.seq !== wantSeq) throw new Error(`step ${i} packet ${k}: sequence id ${r.seq}, expected ${wantSeq}`);
              got.push(r);
            }
            const problem = s.expect(got);
            if (problem !== null) throw new Error(`step ${i}: ${problem}`);
          }
          // nothing else was sent: the next packet answers a final PING
          c.send(0, comPing());
          const pong = await c.read(HANG_MS);
          expect(typeof pong !== 'string' && [pong.seq, pong.payload[0]]).toEqual([1, 0]);
        } finally {
          c.destroy();
        }
      }),
      fuzzParams(300),
    );
  });

  it('closes after a command whose header claims more than is sent, once the client hangs up', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: MAX_CHUNK }), bytes(200), fc.integer({ min: 0, max: 3 }), fc.boolean(), async (extra, body, headerBytes, fin) => {
        env.assertHealthy();
        const c = await loggedIn();
        try {
          const payload = command(3, body);
          const declared = Math.min(MAX_CHUNK, payload.length + extra);
          // sometimes only part of the 4-byte header arrives
          const out = headerBytes === 0 ? frameDeclared(declared, 0, payload) : frameDeclared(declared, 0, payload).subarray(0, headerBytes);
          await c.write(out);
          if (!fin) return;
          c.end();
          expect(await c.waitClosed(HANG_MS)).toBe(true);
        } finally {
          c.destroy();
        }
      }),
      fuzzParams(200),
    );
  });

  it('answers 1153 and closes when a packet exceeds max_allowed_packet (64 MiB), in any phase', async () => {
    const chunks = Math.floor(DEFAULT_MAX_ALLOWED_PACKET / MAX_CHUNK); // 4 full chunks fit
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: DEFAULT_MAX_ALLOWED_PACKET - chunks * MAX_CHUNK + 1, max: MAX_CHUNK }), async (lastLen) => {
        for (const handshake of [true, false]) await oversized(lastLen, handshake);
      }),
      fuzzParams(2),
    );

    async function oversized(lastLen: number, handshake: boolean): Promise<void> {
      env.assertHealthy();
      const full = Buffer.alloc(MAX_CHUNK, 0x20);
      full[0] = 3; // COM_QUERY of spaces
      const c = handshake ? await WireClient.connect(env.port) : await loggedIn();
      try {
        const first = handshake ? 1 : 0;
        if (handshake) await c.greeting();
        for (let i = 0; i < chunks; i++) c.socket.write(frameDeclared(MAX_CHUNK, first + i, full));
        const lastSeq = first + chunks;
        c.socket.write(frameDeclared(lastLen, lastSeq, Buffer.alloc(0)));
        const r = await c.read(10_000);
        expect(errOf(r)).toEqual({ errno: 1153, message: "Got a packet bigger than 'max_allowed_packet' bytes" });
        expect(typeof r !== 'string' && r.seq).toBe(lastSeq + 1);
        expect(await c.waitClosed(HANG_MS)).toBe(true);
      } finally {
        c.destroy();
      }
    }
  });
});
