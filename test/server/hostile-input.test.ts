/**
 * Regression tests for the bugs the protocol fuzzer (fuzz-*.test.ts, issue #6) found or that
 * were found while building it. Each test names the input that triggered the bug.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, MAX_CHUNK, WireType } from '../../src/server/constants.js';
import { PacketDecoder } from '../../src/server/packet-decoder.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { InvalidParamValue, parseDecimal, readBinaryParam } from '../../src/server/binary-value.js';
import { ByteReader } from '../../src/server/byte-reader.js';
import { LongData } from '../../src/server/long-data.js';
import { decodeExecuteHeader, decodeExecuteParams } from '../../src/server/packets/stmt-execute.js';
import { MAX_PREPARED_STMT_COUNT, PreparedRegistry } from '../../src/server/prepared-registry.js';
import type { PreparedStatement } from '../../src/sql/session/types.js';
import { DateTime, Decimal, Duration } from '../../src/types/index.js';
import { bin, comChangeUser, comExecute, comLongData, comPrepare, command, frame, frameDeclared, lenencBytes, u32 } from '../helpers/mysql-packets.js';
import { FakeEngine } from './helpers/fake-engine.js';
import { WireClient, errOf } from './helpers/wire-client.js';

const MAX_PACKET = 1 << 20;
let engine: FakeEngine;
let server: RunningServer;

beforeAll(async () => {
  engine = new FakeEngine();
  server = await startServer({ host: '127.0.0.1', port: 0, engine, logger: pino({ level: 'silent' }), maxAllowedPacket: MAX_PACKET });
});

afterAll(async () => {
  await server.close();
  for (const n of engine.received.closes.values()) expect(n).toBe(1);
});

async function loggedIn(): Promise<WireClient> {
  const c = await WireClient.connect(server.port);
  const reply = await c.login();
  expect(typeof reply !== 'string' && reply.payload[0]).toBe(0);
  return c;
}

/** Prepares `sql` and skips its metadata; the statement id. */
async function prepare(c: WireClient, sql: string): Promise<number> {
  c.send(0, comPrepare(sql));
  const ok = await c.read(2000);
  if (typeof ok === 'string' || ok.payload[0] !== 0) throw new Error(`prepare failed: ${JSON.stringify(typeof ok === 'string' ? ok : errOf(ok))}`);
  const columns = ok.payload.readUInt16LE(5);
  const params = ok.payload.readUInt16LE(7);
  for (let i = 0; i < (params > 0 ? params + 1 : 0) + (columns > 0 ? columns + 1 : 0); i++) await c.read(2000);
  return ok.payload.readUInt32LE(1);
}

const decimalParam = (text: string): Buffer => comExecute({ stmtId: 1, params: [{ type: WireType.NEWDECIMAL, value: lenencBytes(Buffer.from(text)) }] });

describe('decimal parameters', () => {
  it('validates in linear time (was a backtracking regex: 40 KB of digits + "x" blocked ~8 s)', () => {
    const started = Date.now();
    expect(() => parseDecimal(`${'1'.repeat(1_000_000)}x`)).toThrow(InvalidParamValue);
    expect(() => parseDecimal(`1.${'2'.repeat(1_000_000)}e`)).toThrow(InvalidParamValue);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('bounds the magnitude (1e999999999 made toFixed() build a billion-digit string and hang)', () => {
    const max = '9'.repeat(81);
    expect(parseDecimal('1e999999999').toFixed()).toBe(max);
    expect(parseDecimal('-1e999999999').toFixed()).toBe(`-${max}`);
    expect(parseDecimal('1e99999999999999999999').toFixed()).toBe(max);
    expect(parseDecimal('1e-999999999').toFixed(2)).toBe('0.00');
    expect(parseDecimal('7'.repeat(200)).toFixed()).toBe(max);
    expect(parseDecimal(`1.${'7'.repeat(200)}`).toFixed()).toBe(`1.${'7'.repeat(80)}`);
    const state = { types: null, longData: new Map<number, LongData>() };
    const [v] = decodeExecuteParams(decodeExecuteHeader(decimalParam('1e999999999')).reader, 1, state);
    expect((v as Decimal).toFixed(2)).toBe(`${max}.00`);
  });

  it('keeps the accepted syntax', () => {
    for (const [text, value] of [['12.50', '12.5'], [' -0.5 ', '-0.5'], ['.5', '0.5'], ['1.', '1'], ['+1e3', '1000'], ['2E-2', '0.02']]) {
      expect(parseDecimal(text as string).equals(new Decimal(value as string))).toBe(true);
    }
    for (const bad of ['', '.', '-', '1e', 'e5', '--1', '1..2', '0x10', '1e+', 'NaN', 'Infinity', '1 2']) {
      expect(() => parseDecimal(bad), bad).toThrow(InvalidParamValue);
    }
  });
});

describe('temporal parameters', () => {
  const read = (p: { type: number; value: Uint8Array | null }): unknown => readBinaryParam(new ByteReader(Buffer.from(p.value ?? [])), p.type, false);

  it('turn out-of-range DATETIME fields into the zero value, as MySQL does (65535-255-255 255:255:255 reached the engine)', () => {
    const zero = new DateTime('datetime', 0, 0, 0);
    expect(read(bin.datetime(65535, 255, 255, 255, 255, 255, 0xffffffff))).toEqual(zero);
    expect(read(bin.datetime(2024, 13, 1))).toEqual(zero);
    expect(read(bin.datetime(2024, 1, 1, 0, 60, 0))).toEqual(zero);
    expect(read(bin.datetime(2024, 1, 1, 0, 0, 0, 1_000_000))).toEqual(zero);
    expect(read(bin.datetime(2024, 2, 29, 23, 59, 59, 999_999))).toEqual(new DateTime('datetime', 2024, 2, 29, 23, 59, 59, 999_999, 6));
    // a DATE keeps only its date part
    expect(read({ ...bin.datetime(2024, 2, 29, 23, 59, 59, 5), type: WireType.DATE })).toEqual(new DateTime('date', 2024, 2, 29));
  });

  it('clamp TIME beyond 838 hours to 838:59:59 and zero other out-of-range fields', () => {
    expect((read(bin.time(true, 0xffffffff, 23, 0, 0)) as Duration).toString()).toBe('-838:59:59');
    expect((read(bin.time(false, 34, 22, 59, 59, 5)) as Duration).toString()).toBe('838:59:59.000005');
    expect((read(bin.time(false, 0, 1, 60, 0)) as Duration).micros).toBe(0n);
    expect((read(bin.time(false, 1, 2, 3, 4)) as Duration).toString()).toBe('26:03:04');
  });
});

describe('COM_STMT_SEND_LONG_DATA', () => {
  it('appends a million 1-byte chunks in linear time and memory (was O(n²) with a Buffer per chunk)', () => {
    const d = new LongData();
    const one = Buffer.from([0x61]);
    const started = Date.now();
    for (let i = 0; i < 1_000_000; i++) d.append(one, 64 << 20);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(d.length).toBe(1_000_000);
    expect(d.bytes().every((b) => b === 0x61)).toBe(true);
  });

  it('fails the next execute once a parameter exceeded max_allowed_packet (was silently truncated)', async () => {
    const c = await loggedIn();
    const id = await prepare(c, 'SELECT ?');
    const chunk = Buffer.alloc(MAX_PACKET / 2 - 16, 0x62);
    for (let i = 0; i < 3; i++) c.send(0, comLongData(id, 0, chunk));
    c.send(0, comLongData(id, 0, Buffer.from('tail')));
    c.send(0, comExecute({ stmtId: id, params: [{ type: WireType.BLOB, value: new Uint8Array(0) }] }));
    expect(errOf(await c.read(2000))).toEqual({
      errno: 1105,
      message: "Parameter of prepared statement which is set through mysql_send_long_data() is longer than 'max_allowed_packet' bytes",
    });
    // the error clears the long data: the statement works again
    c.send(0, comExecute({ stmtId: id, params: [bin.string('ok')] }));
    const count = await c.read(2000);
    expect(typeof count !== 'string' && count.payload[0]).toBe(1);
    c.destroy();
  });
});

describe('COM_STMT_EXECUTE errors follow MySQL 8.0', () => {
  it('answers 1835 for a short header or missing bytes, 1210 for unusable types, 1243 for unknown ids', async () => {
    const c = await loggedIn();
    const id = await prepare(c, 'SELECT ?, ?');
    const cases: Array<[Buffer, number]> = [
      [command(Command.STMT_EXECUTE, Buffer.from([id, 0, 0, 0, 0, 1, 0, 0])), 1835], // 8 of 9 header bytes
      [command(Command.STMT_EXECUTE, Buffer.concat([u32(id), Buffer.from([0, 1, 0, 0, 0])])), 1835], // no NULL bitmap
      [command(Command.STMT_EXECUTE, Buffer.concat([u32(id), Buffer.from([0, 1, 0, 0, 0, 0, 1, WireType.TINY, 0])])), 1835], // one type of two
      [comExecute({ stmtId: id, params: [bin.tiny(1), bin.string('x')] }).subarray(0, -1), 1835], // value cut short
      // types never bound: a failed execute does not make its types sticky
      [comExecute({ stmtId: id, params: [bin.tiny(1), bin.string('x')], newParamsBound: 0 }), 1210],
      [comExecute({ stmtId: id, params: [bin.tiny(1), { type: 0x42, value: Buffer.from([0]) }] }), 1210], // unknown type
      [comExecute({ stmtId: id, params: [bin.tiny(1), { type: WireType.DATE, value: Buffer.from([3, 1, 2, 3]) }] }), 1210], // date of length 3
      [comExecute({ stmtId: id + 7, params: [] }), 1243],
    ];
    for (const [payload, errno] of cases) {
      c.send(0, payload);
      expect(errOf(await c.read(2000))?.errno, payload.toString('hex')).toBe(errno);
    }
    // any non-zero new-params-bound byte means "types follow", as in MySQL
    c.send(0, comExecute({ stmtId: id, params: [bin.tiny(1), bin.string('x')], newParamsBound: 7 }));
    const count = await c.read(2000);
    expect(typeof count !== 'string' && count.payload[0]).toBe(1);
    c.destroy();
  });
});

describe('COM_STMT_PREPARE limits', () => {
  it('refuses more than 65535 placeholders with 1390 (PREPARE_OK would truncate the count)', async () => {
    const c = await loggedIn();
    c.send(0, comPrepare(`SELECT ${'?,'.repeat(70_000)}?`));
    expect(errOf(await c.read(2000))).toEqual({ errno: 1390, message: 'Prepared statement contains too many placeholders' });
    expect(await prepare(c, 'SELECT ?')).toBe(1);
    c.destroy();
  });

  it('answers 1461 once max_prepared_stmt_count statements are open (a prepare loop grew memory without bound)', async () => {
    const c = await loggedIn();
    const room = MAX_PREPARED_STMT_COUNT - PreparedRegistry.openInProcess;
    await c.write(Buffer.concat(Array.from({ length: room + 1 }, () => frame(0, comPrepare('DO 1')))));
    for (let i = 0; i < room; i++) {
      const ok = await c.read(5000);
      if (typeof ok === 'string' || ok.payload[0] !== 0) throw new Error(`prepare ${i} failed`);
    }
    expect(errOf(await c.read(5000))).toEqual({ errno: 1461, message: `Can't create more than max_prepared_stmt_count statements (current value: ${MAX_PREPARED_STMT_COUNT})` });
    c.destroy();
    // closing the connection frees them all
    for (let t = 0; PreparedRegistry.openInProcess > 0 && t < 100; t++) await new Promise((r) => setTimeout(r, 20));
    const d = await loggedIn();
    expect(await prepare(d, 'SELECT ?')).toBe(1);
    d.destroy();
  });

  it('caps the statements open in the process (max_prepared_stmt_count) with 1461', () => {
    const stmt = (): PreparedStatement => ({ paramCount: 0, columns: [], execute: () => Promise.reject(new Error('unused')), close: () => undefined });
    const base = PreparedRegistry.openInProcess;
    const a = new PreparedRegistry(base + 2);
    const b = new PreparedRegistry(base + 2);
    a.checkCapacity();
    a.add(stmt());
    b.checkCapacity();
    const kept = b.add(stmt());
    expect(() => a.checkCapacity()).toThrow(expect.objectContaining({ errno: 1461, message: `Can't create more than max_prepared_stmt_count statements (current value: ${base + 2})` }));
    b.close(kept.id);
    a.checkCapacity();
    a.closeAll();
    expect(PreparedRegistry.openInProcess).toBe(base);
  });
});

describe('max_allowed_packet', () => {
  it('releases the buffered chunks as soon as a packet is found too large (they stayed for the 2 s end grace)', () => {
    const tooLarge: number[] = [];
    const d = new PacketDecoder({ packet: () => undefined, tooLarge: (seq) => tooLarge.push(seq) }, MAX_CHUNK + 10);
    d.push(frameDeclared(MAX_CHUNK, 0, Buffer.alloc(MAX_CHUNK)));
    expect(d.buffered).toBe(MAX_CHUNK);
    d.push(frameDeclared(11, 1, Buffer.alloc(0)));
    expect(tooLarge).toEqual([1]);
    expect(d.buffered).toBe(0);
  });


  it('answers 1153 and closes when the AuthSwitch reply of COM_CHANGE_USER is too large (was 1105, then a hang)', async () => {
    const c = await loggedIn();
    c.send(0, comChangeUser({ user: 'root', token: new Uint8Array(0), plugin: 'unknown_plugin' }));
    const sw = await c.read(2000);
    expect(typeof sw !== 'string' && sw.payload[0]).toBe(0xfe);
    const seq = typeof sw === 'string' ? 0 : sw.seq + 1;
    c.socket.write(frameDeclared(MAX_PACKET + 1, seq, Buffer.alloc(16)));
    const err = await c.read(2000);
    expect(errOf(err)?.errno).toBe(1153);
    expect(await c.waitClosed(2000)).toBe(true);
  });
});
