import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../src/server/byte-reader.js';
import { ByteWriter } from '../../src/server/byte-writer.js';
import { columnDefinition, textCharset } from '../../src/server/column-meta.js';
import { ColumnFlag, WireType } from '../../src/server/constants.js';
import { formatDouble, formatFloat } from '../../src/server/number-format.js';
import { PacketWriter } from '../../src/server/packet-writer.js';
import { decodeColumnDefinition, writeColumnDefinition } from '../../src/server/packets/column-definition.js';
import { LongData } from '../../src/server/long-data.js';
import { decodeExecuteHeader, decodeExecuteParams, type ParamState } from '../../src/server/packets/stmt-execute.js';
import { MalformedPacket } from '../../src/server/protocol-errors.js';
import { columnsMeta, writeBinaryRow, writeTextRow } from '../../src/server/result-writer.js';
import { DateTime, Decimal, Duration, makeType } from '../../src/types/index.js';
import { col, TYPED_COLUMNS, TYPED_ROWS } from './helpers/fake-engine.js';

function payloadOf(w: PacketWriter): Buffer {
  return w.take().subarray(4);
}

describe('column definitions', () => {
  it('maps SQL types to wire type, charset, length, flags and decimals', () => {
    const def = (t: Parameters<typeof col>[1], extra = {}) => columnDefinition(col('c', t, extra), 224);
    expect(def(makeType('int'))).toMatchObject({ type: WireType.LONG, charset: 63, length: 11, flags: 0 });
    expect(def(makeType('int', { unsigned: true }))).toMatchObject({ length: 10, flags: ColumnFlag.UNSIGNED });
    expect(def(makeType('tinyint', { length: 1 }))).toMatchObject({ type: WireType.TINY, length: 1 });
    expect(def(makeType('bigint'), { notNull: true, primaryKey: true, autoIncrement: true })).toMatchObject({
      type: WireType.LONGLONG, length: 20, flags: ColumnFlag.NOT_NULL | ColumnFlag.PRI_KEY | ColumnFlag.AUTO_INCREMENT,
    });
    expect(def(makeType('decimal', { length: 10, scale: 2 }))).toMatchObject({ type: 246, length: 12, decimals: 2, charset: 63 });
    expect(def(makeType('double'))).toMatchObject({ type: WireType.DOUBLE, length: 22, decimals: 31 });
    expect(def(makeType('varchar', { length: 20 }))).toMatchObject({ type: 253, charset: 224, length: 80, flags: 0 });
    expect(def(makeType('char', { length: 3 }))).toMatchObject({ type: 254, charset: 224, length: 12 });
    expect(def(makeType('text', { lob: 'long' }))).toMatchObject({ type: 252, charset: 224, length: 0xffffffff, flags: ColumnFlag.BLOB });
    expect(def(makeType('varbinary', { length: 8 }))).toMatchObject({ type: 253, charset: 63, length: 8, flags: ColumnFlag.BINARY });
    expect(def(makeType('blob'))).toMatchObject({ type: 252, charset: 63, length: 65535, flags: ColumnFlag.BLOB | ColumnFlag.BINARY });
    expect(def(makeType('datetime', { scale: 3 }))).toMatchObject({ type: 12, length: 23, decimals: 3, flags: ColumnFlag.BINARY });
    expect(def(makeType('time'))).toMatchObject({ type: 11, length: 10 });
    expect(def(makeType('year'))).toMatchObject({ type: 13, flags: ColumnFlag.UNSIGNED | ColumnFlag.ZEROFILL });
    expect(def(makeType('json'))).toMatchObject({ type: 245, charset: 63 });
  });

  it('never sends charset 63 for text columns', () => {
    for (const id of [33, 45, 46, 224, 255]) expect(textCharset(id)).toBe(id);
    expect(textCharset(63)).toBe(46);
    expect(textCharset(8)).toBe(46);
  });

  it('encodes and decodes ColumnDefinition41 (with the COM_FIELD_LIST default)', () => {
    const d = columnDefinition(col('name', makeType('varchar', { length: 5 }), { notNull: true }), 45);
    const w = new PacketWriter();
    writeColumnDefinition(w, d);
    expect(decodeColumnDefinition(payloadOf(w))).toEqual(d);
    writeColumnDefinition(w, d, 'dflt');
    const withDefault = payloadOf(w);
    expect(withDefault.subarray(withDefault.length - 5).toString()).toBe('\x04dflt');
    writeColumnDefinition(w, d, null);
    expect(payloadOf(w).at(-1)).toBe(0xfb);
  });
});

describe('row encoding', () => {
  it('formats text rows like MySQL', () => {
    const w = new PacketWriter();
    writeTextRow(w, TYPED_ROWS[0] as never, TYPED_COLUMNS);
    const r = new ByteReader(payloadOf(w));
    const texts = TYPED_COLUMNS.map(() => r.lenencBytes());
    expect(texts.slice(0, 9).map((b) => b.toString())).toEqual([
      '1', '18446744073709551615', '12.50', '0.1', '0.1', 'héllo', '2024-01-02 03:04:05.678', '2024-02-29', '-25:01:02',
    ]);
    expect([...(texts[9] as Buffer)]).toEqual([0, 1, 255]);
    expect(texts.slice(10).map((b) => b.toString())).toEqual(['-5', '7']);
    writeTextRow(w, [null, null], [col('a', makeType('int')), col('b', makeType('int'))]);
    expect([...payloadOf(w)]).toEqual([0xfb, 0xfb]);
  });

  it('formats doubles and floats in the shortest MySQL form', () => {
    expect(formatDouble(0.1)).toBe('0.1');
    expect(formatDouble(1e20)).toBe('1e20');
    expect(formatDouble(1e15)).toBe('1e15');
    expect(formatDouble(123456789012345)).toBe('123456789012345');
    expect(formatDouble(-1.5e-7)).toBe('-1.5e-7');
    expect(formatDouble(0.0001)).toBe('0.0001');
    expect(formatDouble(100)).toBe('100');
    expect(formatDouble(-2.5)).toBe('-2.5');
    expect(formatFloat(0.1)).toBe('0.1');
    expect(formatFloat(Math.fround(3.14159))).toBe('3.14159');
    expect(formatFloat(16777217)).toBe('16777216');
  });

  it('encodes binary rows: 0x00, NULL bitmap at offset 2, values by wire type', () => {
    const cols = TYPED_COLUMNS;
    const meta = columnsMeta(cols, 46, new WeakMap());
    const w = new PacketWriter();
    writeBinaryRow(w, TYPED_ROWS[0] as never, cols, meta.wireTypes);
    const r = new ByteReader(payloadOf(w));
    expect(r.u8()).toBe(0);
    expect([...r.bytes(2)]).toEqual([0, 0]); // (12 + 9) >> 3 = 2 bytes, nothing NULL
    expect(r.u64()).toBe(1n);
    expect(r.u64()).toBe(18446744073709551615n);
    expect(r.lenencString()).toBe('12.50');
    expect(r.bytes(8).readDoubleLE(0)).toBe(0.1);
    expect(r.bytes(4).readFloatLE(0)).toBe(Math.fround(0.1));
    expect(r.lenencString()).toBe('héllo');
    expect([...r.bytes(12)]).toEqual([11, 0xe8, 0x07, 1, 2, 3, 4, 5, 0x70, 0x58, 0x0a, 0x00]); // 678000 µs
    expect([...r.bytes(5)]).toEqual([4, 0xe8, 0x07, 2, 29]);
    expect([...r.bytes(9)]).toEqual([8, 1, 1, 0, 0, 0, 1, 1, 2]); // -25:01:02 = 1 day 1 hour
    expect([...r.lenencBytes()]).toEqual([0, 1, 255]);
    expect(r.u8()).toBe(0xfb); // -5 as TINY
    expect(r.u32()).toBe(7); // number 7 in an INT column is converted
    expect(r.remaining()).toBe(0);

    writeBinaryRow(w, TYPED_ROWS[1] as never, cols, meta.wireTypes);
    const r2 = new ByteReader(payloadOf(w));
    r2.u8();
    // columns 1..11 NULL -> bits 3..13
    expect([...r2.bytes(2)]).toEqual([0b11111000, 0b00111111]);
    expect(r2.u64()).toBe(2n);
    expect(r2.remaining()).toBe(0);
  });
});

describe('COM_STMT_EXECUTE decoding', () => {
  function executePayload(stmtId: number, body: number[]): Buffer {
    return Buffer.from([0x17, stmtId, 0, 0, 0, 0, 1, 0, 0, 0, ...body]);
  }

  it('decodes typed parameters and reuses sticky types with new_params_bound = 0', () => {
    const state: ParamState = { types: null, longData: new Map() };
    const first = executePayload(1, [
      0b100, 1, // NULL bitmap (param 2 NULL), new_params_bound
      WireType.LONGLONG, 0x80, WireType.VAR_STRING, 0, WireType.NULL, 0,
      ...[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 2, 0x68, 0x69,
    ]);
    const h = decodeExecuteHeader(first);
    expect(h.stmtId).toBe(1);
    expect(decodeExecuteParams(h.reader, 3, state)).toEqual([18446744073709551615n, 'hi', null]);

    const second = executePayload(1, [0b000, 0, ...[5, 0, 0, 0, 0, 0, 0, 0], 1, 0x7a, /* param 2 */ ]);
    // param 3 is typed NULL: no bytes even when not flagged in the bitmap
    expect(decodeExecuteParams(decodeExecuteHeader(second).reader, 3, state)).toEqual([5n, 'z', null]);
  });

  it('decodes every parameter family into Values', () => {
    const state: ParamState = { types: null, longData: new Map([[5, LongData.of(Buffer.from('lo'), Buffer.from('ng'))]]) };
    const w = new ByteWriter();
    w.bytes(Buffer.from([0x17, 9, 0, 0, 0, 0, 1, 0, 0, 0]));
    w.bytes(Buffer.from([0, 0, 1]));
    const types = [WireType.TINY, 0, WireType.DOUBLE, 0, WireType.NEWDECIMAL, 0, WireType.DATETIME, 0, WireType.TIME, 0, WireType.BLOB, 0, WireType.BLOB, 0, WireType.FLOAT, 0, WireType.SHORT, 0x80];
    w.bytes(Buffer.from(types));
    w.u8(0xfe);
    w.f64(1.5);
    w.lenencString('-12.345');
    w.bytes(Buffer.from([7, 0xe8, 0x07, 12, 31, 23, 59, 58]));
    w.bytes(Buffer.from([12, 1, 0, 0, 0, 0, 2, 3, 4, 0x10, 0x27, 0, 0]));
    // param 5 comes from long data: no bytes here
    w.lenencBytes(Buffer.from([9, 8]));
    w.f32(0.5);
    w.u16(65535);
    const values = decodeExecuteParams(decodeExecuteHeader(w.buf.subarray(0, w.pos)).reader, 9, state);
    expect(values[0]).toBe(-2n);
    expect(values[1]).toBe(1.5);
    expect((values[2] as Decimal).equals(new Decimal('-12.345'))).toBe(true);
    expect(values[3]).toEqual(new DateTime('datetime', 2024, 12, 31, 23, 59, 58));
    expect((values[4] as Duration).toString()).toBe('-02:03:04.010000');
    expect((values[4] as Duration).micros).toBe(-(7384n * 1_000_000n + 10000n));
    expect(values[5]).toEqual(new Uint8Array(Buffer.from('long')));
    expect(values[6]).toEqual(new Uint8Array([9, 8]));
    expect(values[7]).toBe(0.5);
    expect(values[8]).toBe(65535n);
  });

  it('rejects truncated data (1835), unknown and missing types (1210)', () => {
    const state: ParamState = { types: null, longData: new Map() };
    const wrongArgs = { errno: 1210, message: 'Incorrect arguments to mysqld_stmt_execute' };
    const noTypes = executePayload(1, [0, 0, 1, 2, 3]);
    expect(() => decodeExecuteParams(decodeExecuteHeader(noTypes).reader, 1, state)).toThrow(expect.objectContaining(wrongArgs));
    const truncated = executePayload(1, [0, 1, WireType.LONGLONG, 0, 1, 2]);
    expect(() => decodeExecuteParams(decodeExecuteHeader(truncated).reader, 1, state)).toThrow(MalformedPacket);
    const unknown = executePayload(1, [0, 1, 0x42, 0, 1]);
    expect(() => decodeExecuteParams(decodeExecuteHeader(unknown).reader, 1, { types: null, longData: new Map() })).toThrow(expect.objectContaining(wrongArgs));
    expect(() => decodeExecuteHeader(Buffer.from([0x17, 1, 0]))).toThrow(MalformedPacket);
  });
});
