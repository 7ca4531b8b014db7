/**
 * Protocol fuzzing after authentication (issue #6): random command bytes, every real command
 * with mutated payloads (COM_QUERY with junk and invalid UTF-8, INIT_DB, FIELD_LIST, STMT_*
 * with wrong ids / counts / types / bitmaps / truncation, CHANGE_USER junk), wrong sequence ids
 * and packets split across TCP writes. Each connection must answer (ERR or a result) or close
 * within 2 s, never with 1105 (an exception escaping a handler); the canary connection keeps
 * answering, the process never sees an uncaught exception, and memory returns to its start.
 * Replay: FUZZ_SEED=<seed>; scale: FUZZ_RUNS_SCALE=<factor>.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/server/constants.js';
import { comPrepare, frame } from '../helpers/mysql-packets.js';
import { commandPayload, commandSeq, cuts, executePayload, longDataPayload, PREPARED } from './helpers/fuzz-arbitraries.js';
import { FuzzEnv, fuzzParams, internalErrors, isOk, probe, seenSummary, HANG_MS } from './helpers/fuzz-harness.js';
import { WireClient, errOf } from './helpers/wire-client.js';

const SETUP = [
  'CREATE DATABASE fz',
  'CREATE TABLE fz.t (id INT PRIMARY KEY, v VARCHAR(20), d DATETIME, x DOUBLE)',
  "INSERT INTO fz.t VALUES (1, 'a', '2024-01-01 00:00:00', 1.5), (2, 'b', NULL, NULL), (3, NULL, '2000-02-29 12:00:00', -0.5)",
  'CREATE TABLE fz.s (id BIGINT PRIMARY KEY, v VARCHAR(64), d DATETIME(6), x DECIMAL(20,6))',
];

let env: FuzzEnv;

beforeAll(async () => {
  env = await FuzzEnv.start(SETUP);
});

afterAll(async () => {
  if (env === undefined) return; // beforeAll failed and says why
  const growth = await env.finish();
  console.log(`fuzz-commands: canary ${env.canaryRounds} rounds, slowest ${env.canaryMaxMs} ms; heap +${growth.heapGrowthMb.toFixed(1)} MiB\n  seen: ${seenSummary()}`);
});

/** Reads one COM_STMT_PREPARE response; the statement id. */
async function prepare(c: WireClient, sql: string): Promise<number> {
  c.send(0, comPrepare(sql));
  const ok = await c.read(HANG_MS);
  if (typeof ok === 'string' || ok.payload[0] !== 0) throw new Error(`prepare ${sql}: ${typeof ok === 'string' ? ok : JSON.stringify(errOf(ok))}`);
  const columns = ok.payload.readUInt16LE(5);
  const params = ok.payload.readUInt16LE(7);
  const more = (params > 0 ? params + 1 : 0) + (columns > 0 ? columns + 1 : 0);
  for (let i = 0; i < more; i++) if (typeof (await c.read(HANG_MS)) === 'string') throw new Error('prepare: short response');
  return ok.payload.readUInt32LE(1);
}

/** A logged-in connection on fz with the PREPARED statements as ids 1..n. */
async function session(): Promise<WireClient> {
  const c = await WireClient.connect(env.port);
  const reply = await c.login('root', '', { database: 'fz' });
  if (!isOk(reply)) throw new Error(`login failed: ${JSON.stringify(typeof reply === 'string' ? reply : errOf(reply))}`);
  for (const [i, sql] of PREPARED.entries()) expect(await prepare(c, sql)).toBe(i + 1);
  return c;
}

function describeInput(packets: ReadonlyArray<{ seq: number; payload: Uint8Array }>): string {
  return packets.map((p) => `seq ${p.seq}: ${Buffer.from(p.payload).toString('hex')}`).join('\n');
}

/**
 * Sends the framed packets (cut into separate writes), then probes the connection: it must
 * answer a marker query or close, without any 1105 on the way.
 */
async function sendAndProbe(packets: ReadonlyArray<{ seq: number; payload: Uint8Array }>, cutAt: readonly number[]): Promise<void> {
  env.assertHealthy();
  const c = await session();
  try {
    const stream = Buffer.concat(packets.map((p) => frame(p.seq, p.payload)));
    await c.write(stream, cutAt.map((x) => x % Math.max(1, stream.length)));
    const live = await probe(c);
    const input = describeInput(packets);
    expect(live.outcome, `${live.detail}\ninput:\n${input}`).not.toBe('hung');
    // only QUIT and a failed COM_CHANGE_USER end a session
    const mayClose = packets.some((p) => p.payload[0] === Command.QUIT || p.payload[0] === Command.CHANGE_USER);
    if (live.outcome === 'closed') expect(mayClose, `closed without QUIT or CHANGE_USER; input:\n${input}`).toBe(true);
    expect(internalErrors(live.errors), `input:\n${input}`).toEqual([]);
  } finally {
    c.destroy();
  }
  env.assertHealthy();
}

const packet = (payload: fc.Arbitrary<Uint8Array>): fc.Arbitrary<{ seq: number; payload: Uint8Array }> =>
  fc.record({ seq: commandSeq, payload });

describe('protocol fuzz: command phase', () => {
  it('survives sequences of mutated commands of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(packet(commandPayload), { minLength: 1, maxLength: 4 }), cuts, sendAndProbe),
      fuzzParams(400),
    );
  });

  it('survives COM_STMT_EXECUTE with broken parameter blocks, after long data or not', async () => {
    const longThenExecute = fc.tuple(fc.array(longDataPayload, { maxLength: 3 }), executePayload).map(([ld, ex]) => [...ld, ex]);
    await fc.assert(
      fc.asyncProperty(
        longThenExecute.chain((ps) => fc.tuple(...ps.map((p) => packet(fc.constant(p))))),
        cuts,
        sendAndProbe,
      ),
      fuzzParams(400),
    );
  });

  it('survives a random byte stream after login (framing and all)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), cuts, async (junk, cutAt) => {
        env.assertHealthy();
        const c = await session();
        try {
          await c.write(junk, cutAt.map((x) => x % junk.length));
          // The junk may announce a longer packet than it carries: hang up and expect the close.
          c.end();
          expect(await c.waitClosed(HANG_MS), `input: ${Buffer.from(junk).toString('hex')}`).toBe(true);
        } finally {
          c.destroy();
        }
      }),
      fuzzParams(200),
    );
  });

  it('answers every statement id it does not know with 1243 naming the command', async () => {
    const c = await session();
    c.send(0, executePayloadFor(99));
    expect(errOf(await c.read(HANG_MS))).toEqual({ errno: 1243, message: 'Unknown prepared statement handler (99) given to mysqld_stmt_execute' });
    c.send(0, Buffer.from([Command.STMT_RESET, 99, 0, 0, 0]));
    expect(errOf(await c.read(HANG_MS))).toEqual({ errno: 1243, message: 'Unknown prepared statement handler (99) given to mysqld_stmt_reset' });
    c.destroy();
  });
});

function executePayloadFor(id: number): Buffer {
  return Buffer.from([Command.STMT_EXECUTE, id & 0xff, (id >> 8) & 0xff, (id >> 16) & 0xff, id >>> 24, 0, 1, 0, 0, 0]);
}
