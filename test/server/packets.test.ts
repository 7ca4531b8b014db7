import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../src/server/byte-reader.js';
import { ByteWriter } from '../../src/server/byte-writer.js';
import { Cap, MAX_CHUNK, SERVER_CAPABILITIES, WireType } from '../../src/server/constants.js';
import { PacketDecoder, type Packet } from '../../src/server/packet-decoder.js';
import { PacketWriter } from '../../src/server/packet-writer.js';
import { MalformedPacket } from '../../src/server/protocol-errors.js';
import { decodeHandshakeV10, encodeHandshakeV10 } from '../../src/server/packets/handshake-v10.js';
import { decodeHandshakeResponse, encodeHandshakeResponse } from '../../src/server/packets/handshake-response.js';
import { generateScramble, nativeToken, sha2Token, verifyNative, verifySha2 } from '../../src/server/auth-crypto.js';
import { createHash } from 'node:crypto';

function decodeAll(bytes: Buffer, chunkSize: number, max = 1 << 30): { packets: Packet[]; tooLarge: number[] } {
  const packets: Packet[] = [];
  const tooLarge: number[] = [];
  const d = new PacketDecoder({ packet: (p) => packets.push(p), tooLarge: (s) => tooLarge.push(s) }, max);
  for (let o = 0; o < bytes.length; o += chunkSize) d.push(bytes.subarray(o, o + chunkSize));
  return { packets, tooLarge };
}

describe('lenenc integers and strings', () => {
  it('round-trips every length class, using the minimal prefix', () => {
    const cases: Array<[number | bigint, number]> = [
      [0, 1], [250, 1], [251, 3], [0xffff, 3], [0x10000, 4], [0xffffff, 4], [0x1000000, 9], [2 ** 53 - 1, 9], [5n, 1],
    ];
    for (const [v, size] of cases) {
      const w = new ByteWriter(4);
      w.lenencInt(v);
      expect(w.pos, `size of ${v}`).toBe(size);
      expect(new ByteReader(w.buf.subarray(0, w.pos)).lenencInt()).toBe(Number(v));
    }
  });

  it('writes 64-bit values above 2^53 as 0xFE + 8 bytes', () => {
    const w = new ByteWriter();
    w.lenencInt(18446744073709551615n);
    expect([...w.buf.subarray(0, 9)]).toEqual([0xfe, 255, 255, 255, 255, 255, 255, 255, 255]);
  });

  it('round-trips utf-8 strings and rejects truncation, 0xFB and 0xFF prefixes', () => {
    const w = new ByteWriter(2);
    w.lenencString('héllo wörld ✓');
    w.lenencString('x'.repeat(300));
    const r = new ByteReader(w.buf.subarray(0, w.pos));
    expect(r.lenencString()).toBe('héllo wörld ✓');
    expect(r.lenencString()).toBe('x'.repeat(300));
    expect(() => new ByteReader(Buffer.from([5, 1, 2])).lenencString()).toThrow(MalformedPacket);
    expect(() => new ByteReader(Buffer.from([0xfb])).lenencInt()).toThrow(MalformedPacket);
    expect(() => new ByteReader(Buffer.from([0xff])).lenencInt()).toThrow(MalformedPacket);
    expect(() => new ByteReader(Buffer.from([0xfc, 1])).lenencInt()).toThrow(MalformedPacket);
  });
});

describe('framing', () => {
  it('frames small packets with consecutive sequence ids and decodes many per chunk', () => {
    const w = new PacketWriter();
    w.seq = 254;
    w.packet(Buffer.from('a'));
    w.packet(Buffer.from(''));
    w.packet(Buffer.from('ccc'));
    const bytes = w.take();
    expect([...bytes.subarray(0, 5)]).toEqual([1, 0, 0, 254, 0x61]);
    for (const chunk of [1, 3, 100]) {
      const { packets } = decodeAll(bytes, chunk);
      expect(packets.map((p) => [p.seq, p.payload.toString()])).toEqual([[254, 'a'], [255, ''], [0, 'ccc']]);
    }
  });

  it('pending() is a view of the buffer: settle(true) reuses it, settle(false) leaves the view alone', () => {
    const w = new PacketWriter();
    w.seq = 7;
    w.packet(Buffer.from('first'));
    const a = w.pending();
    expect([...a]).toEqual([5, 0, 0, 7, ...Buffer.from('first')]);
    w.settle(true);
    expect(w.pos).toBe(0);
    w.packet(Buffer.from('again'));
    const b = w.pending();
    expect(b.buffer).toBe(a.buffer); // the same memory: `a` was copied out by its consumer
    expect(b.byteOffset).toBe(a.byteOffset);
    expect(b.subarray(4).toString()).toBe('again');
    w.settle(false);
    w.packet(Buffer.from('third'));
    expect(b.subarray(4).toString()).toBe('again'); // kept by its consumer: not overwritten
    expect(w.pending().buffer).not.toBe(b.buffer);
    expect(w.pending()[3]).toBe(9);
  });

  it('settle() does not keep a buffer grown by a big response', () => {
    const w = new PacketWriter();
    w.packet(Buffer.alloc(200_000, 1));
    const big = w.pending();
    expect(big.length).toBe(200_004);
    w.settle(true);
    w.packet(Buffer.from('small'));
    expect(w.pending().buffer).not.toBe(big.buffer);
    expect(w.pending().buffer.byteLength).toBeLessThanOrEqual(64 * 1024);
  });

  it('splits payloads >= 16 MiB and re-assembles them, incl. the empty trailing chunk', () => {
    for (const len of [MAX_CHUNK, MAX_CHUNK + 10, 2 * MAX_CHUNK]) {
      const payload = Buffer.alloc(len);
      for (let i = 0; i < len; i += 4099) payload[i] = i & 0xff;
      const w = new PacketWriter();
      w.seq = 3;
      w.packet(payload);
      w.packet(Buffer.from('next'));
      const bytes = w.take();
      const chunks = Math.floor(len / MAX_CHUNK) + 1;
      expect(bytes.length).toBe(len + chunks * 4 + 4 + 4);
      // header of the last chunk of the big payload
      const lastHeader = 4 * (chunks - 1) + MAX_CHUNK * (chunks - 1);
      expect(bytes.readUIntLE(lastHeader, 3)).toBe(len % MAX_CHUNK);
      const { packets } = decodeAll(bytes, 65536);
      expect(packets).toHaveLength(2);
      expect(packets[0]?.seq).toBe(3 + chunks - 1);
      expect(packets[0]?.payload.equals(payload)).toBe(true);
      expect(packets[1]?.seq).toBe(3 + chunks);
      expect(packets[1]?.payload.toString()).toBe('next');
    }
  });

  it('reports packets bigger than max_allowed_packet from the header alone', () => {
    const header = Buffer.from([0x00, 0x10, 0x00, 0x00]); // 4096 bytes announced
    const { packets, tooLarge } = decodeAll(header, 4, 1000);
    expect(packets).toHaveLength(0);
    expect(tooLarge).toEqual([0]);
  });
});

describe('handshake packets', () => {
  it('encodes HandshakeV10 as clients expect and decodes it back', () => {
    const scramble = generateScramble();
    expect(scramble).toHaveLength(20);
    for (const b of scramble) {
      expect(b).toBeGreaterThanOrEqual(1);
      expect(b).toBeLessThanOrEqual(127);
      expect(b).not.toBe(0x24);
    }
    const w = new ByteWriter();
    const hello = {
      serverVersion: '8.0.11-ShaleDB-0.1.0', connectionId: 7, scramble, capabilities: SERVER_CAPABILITIES,
      charset: 46, status: 2, authPlugin: 'mysql_native_password',
    };
    encodeHandshakeV10(w, hello);
    const payload = w.buf.subarray(0, w.pos);
    // 10 reserved bytes right after the auth-data length must be zero
    const afterVersion = 1 + hello.serverVersion.length + 1;
    const reservedAt = afterVersion + 4 + 8 + 1 + 2 + 1 + 2 + 2 + 1;
    expect(payload[reservedAt - 1]).toBe(21);
    expect([...payload.subarray(reservedAt, reservedAt + 10)]).toEqual(new Array(10).fill(0));
    expect(decodeHandshakeV10(payload)).toEqual(hello);
    expect(SERVER_CAPABILITIES & Cap.SSL).toBe(0);
  });

  it('decodes HandshakeResponse41 for mysql2-like, mysqljs-like (no PLUGIN_AUTH/ATTRS/LENENC) and minimal clients', () => {
    const base = { maxPacket: 0, charset: 224, user: 'alice', authResponse: Buffer.alloc(20, 7), database: 'test', authPlugin: 'mysql_native_password', attributes: new Map([['_client_name', 'x']]) };
    const full = 0x08baf3cf;
    const w = new ByteWriter();
    encodeHandshakeResponse(w, { ...base, capabilities: full });
    const r = decodeHandshakeResponse(w.buf.subarray(0, w.pos), SERVER_CAPABILITIES);
    expect(r).toMatchObject({ user: 'alice', database: 'test', authPlugin: 'mysql_native_password', charset: 224 });
    expect(r.authResponse.equals(base.authResponse)).toBe(true);
    expect(r.attributes.get('_client_name')).toBe('x');

    const mysqljs = 0x0006f3cf;
    const w2 = new ByteWriter();
    encodeHandshakeResponse(w2, { ...base, capabilities: mysqljs, charset: 33 });
    const r2 = decodeHandshakeResponse(w2.buf.subarray(0, w2.pos), SERVER_CAPABILITIES);
    expect(r2).toMatchObject({ user: 'alice', database: 'test', authPlugin: '', charset: 33 });
    expect(r2.authResponse.equals(base.authResponse)).toBe(true);

    // CONNECT_ATTRS / PLUGIN_AUTH claimed, but the client stopped after the database
    const w3 = new ByteWriter();
    encodeHandshakeResponse(w3, { ...base, capabilities: mysqljs });
    const claimed = Buffer.from(w3.buf.subarray(0, w3.pos));
    claimed.writeUInt32LE(mysqljs | Cap.PLUGIN_AUTH | Cap.CONNECT_ATTRS, 0);
    expect(decodeHandshakeResponse(claimed, SERVER_CAPABILITIES)).toMatchObject({ database: 'test', authPlugin: '' });

    // An SSLRequest (32 bytes) and a pre-4.1 client are refused
    expect(() => decodeHandshakeResponse(Buffer.alloc(32, 0).fill(0xff, 0, 4), SERVER_CAPABILITIES)).toThrow(MalformedPacket);
    expect(() => decodeHandshakeResponse(Buffer.from([1, 0, 0, 0]), SERVER_CAPABILITIES)).toThrow(MalformedPacket);
  });

  it('verifies native and caching_sha2 tokens', () => {
    const scramble = generateScramble();
    const pw = Buffer.from('pa55');
    const sha1 = (b: Buffer): Buffer => createHash('sha1').update(b).digest();
    const sha256 = (b: Buffer): Buffer => createHash('sha256').update(b).digest();
    expect(verifyNative(nativeToken('pa55', scramble), scramble, sha1(sha1(pw)))).toBe(true);
    expect(verifyNative(nativeToken('nope', scramble), scramble, sha1(sha1(pw)))).toBe(false);
    expect(verifyNative(Buffer.alloc(0), scramble, new Uint8Array(0))).toBe(true);
    expect(verifyNative(Buffer.alloc(0), scramble, sha1(sha1(pw)))).toBe(false);
    expect(verifySha2(sha2Token('pa55', scramble), scramble, sha256(sha256(pw)))).toBe(true);
    expect(verifySha2(sha2Token('pa5', scramble), scramble, sha256(sha256(pw)))).toBe(false);
    expect(verifySha2(Buffer.alloc(31), scramble, sha256(sha256(pw)))).toBe(false);
  });

  it('has the advertised capability set', () => {
    expect(SERVER_CAPABILITIES).toBe(0x003fa60f);
    expect(WireType.NEWDECIMAL).toBe(246);
  });
});

describe('terminal packets', () => {
  it('encodes OK with 64-bit insert ids, EOF, and both ERR layouts', async () => {
    const { writeOk } = await import('../../src/server/packets/ok.js');
    const { writeEof } = await import('../../src/server/packets/eof.js');
    const { writeErr, writeErrPre41 } = await import('../../src/server/packets/err.js');
    const w = new PacketWriter();
    w.seq = 1;
    writeOk(w, { affectedRows: 2n, insertId: (1n << 60n) + 1n, status: 0x0b, warnings: 1, info: 'Rows matched: 2  Changed: 2  Warnings: 0' });
    writeEof(w, 0, 0x22);
    writeErr(w, { errno: 1213, sqlState: '40001', message: 'Deadlock found' });
    writeErrPre41(w, { errno: 1053, sqlState: '08S01', message: 'Server shutdown in progress' });
    const { packets } = decodeAll(w.take(), 7);
    expect(packets.map((p) => p.seq)).toEqual([1, 2, 3, 4]);
    const ok = new ByteReader(packets[0]?.payload ?? Buffer.alloc(0));
    expect([ok.u8(), ok.lenencInt()]).toEqual([0, 2]);
    expect(ok.u8()).toBe(0xfe);
    expect(ok.u64()).toBe((1n << 60n) + 1n);
    expect([ok.u16(), ok.u16(), ok.lenencInt()]).toEqual([0x0b, 1, 40]);
    expect(ok.rest().toString()).toBe('Rows matched: 2  Changed: 2  Warnings: 0');
    expect([...(packets[1]?.payload ?? [])]).toEqual([0xfe, 0, 0, 0x22, 0]);
    expect(packets[2]?.payload.toString('latin1')).toBe('\xff\xbd\x04#40001Deadlock found');
    expect(packets[3]?.payload.toString('latin1')).toBe('\xff\x1d\x04Server shutdown in progress');
  });
});
