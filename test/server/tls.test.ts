/**
 * TLS on the wire: the CLIENT_SSL decision, SSLRequest detection, the decoder's hold, loading
 * certificate files, and a raw client that upgrades after an SSLRequest, with the TLS
 * ClientHello in its own TCP write or in the same write as the SSLRequest.
 */
import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeToken } from '../../src/server/auth-crypto.js';
import { Cap, SERVER_CAPABILITIES } from '../../src/server/constants.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { PacketDecoder, type Packet } from '../../src/server/packet-decoder.js';
import { PacketWriter } from '../../src/server/packet-writer.js';
import { encodeHandshakeResponse } from '../../src/server/packets/handshake-response.js';
import { decodeHandshakeV10 } from '../../src/server/packets/handshake-v10.js';
import { isSslRequest, loadTlsContext, serverCapabilities, TlsConfigError } from '../../src/server/tls.js';
import { makeTestCerts, type TestCerts } from '../helpers/tls-certs.js';
import { FakeEngine } from './helpers/fake-engine.js';
import { CLIENT_CAPS, parseErr, RawClient } from './helpers/raw-client.js';

const silent = pino({ level: 'silent' });
let certs: TestCerts;
let engine: FakeEngine;
let tlsServer: RunningServer;
let plainServer: RunningServer;

beforeAll(async () => {
  certs = makeTestCerts();
  engine = new FakeEngine();
  tlsServer = await startServer({ host: '127.0.0.1', port: 0, engine, logger: silent, tls: loadTlsContext(certs.cert, certs.key) });
  plainServer = await startServer({ host: '127.0.0.1', port: 0, engine, logger: silent });
});

afterAll(async () => {
  await tlsServer?.close();
  await plainServer?.close();
  if (certs) rmSync(certs.dir, { recursive: true, force: true });
});

function framed(seq: number, payload: Buffer): Buffer {
  const w = new PacketWriter();
  w.seq = seq;
  w.packet(payload);
  return w.take();
}

function sslRequest(caps = CLIENT_CAPS | Cap.SSL): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(caps >>> 0, 0);
  b[8] = 45;
  return b;
}

function handshakeResponse(scramble: Buffer, user = 'alice', password = 's3cret-pw'): Buffer {
  const w = new PacketWriter();
  encodeHandshakeResponse(w, {
    capabilities: CLIENT_CAPS | Cap.SSL,
    maxPacket: 0,
    charset: 45,
    user,
    authResponse: nativeToken(password, scramble),
    database: '',
    authPlugin: 'mysql_native_password',
    attributes: new Map(),
  });
  return w.take();
}

/** Packets arriving on a stream, in order. */
function packetReader(stream: Socket | TLSSocket): { next(): Promise<Packet>; stop(): void } {
  const queue: Packet[] = [];
  let wake: (() => void) | null = null;
  const decoder = new PacketDecoder({ packet: (p) => (queue.push(p), wake?.()), tooLarge: () => undefined }, 1 << 24);
  const onData = (c: Buffer): void => decoder.push(c);
  stream.on('data', onData);
  return {
    async next() {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      return queue.shift() as Packet;
    },
    stop: () => stream.off('data', onData),
  };
}

/**
 * Greeting, SSLRequest, TLS, HandshakeResponse (seq 2). `coalesce` sends the SSLRequest and the
 * ClientHello in one TCP write. Returns the reply to the HandshakeResponse and the TLS socket.
 */
async function tlsLogin(port: number, coalesce: boolean, password = 's3cret-pw'): Promise<{ reply: Packet; secure: TLSSocket }> {
  const raw = connect(port, '127.0.0.1');
  await new Promise<void>((r) => raw.once('connect', r));
  const plain = packetReader(raw);
  const greeting = decodeHandshakeV10((await plain.next()).payload);
  expect(greeting.capabilities & Cap.SSL).toBe(Cap.SSL);
  plain.stop();
  const request = framed(1, sslRequest());
  let transport: Socket | Duplex = raw;
  if (coalesce) {
    let first = true;
    const shim = new Duplex({
      write(chunk: Buffer, _enc, cb) {
        raw.write(first ? Buffer.concat([request, chunk]) : chunk, cb);
        first = false;
      },
      read() {},
      final(cb) {
        raw.end();
        cb();
      },
    });
    raw.on('data', (d: Buffer) => shim.push(d));
    raw.on('end', () => shim.push(null));
    transport = shim;
  } else {
    raw.write(request);
  }
  const secure = tlsConnect({ socket: transport, ca: readFileSync(certs.cert), servername: 'localhost' });
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', resolve);
    secure.once('error', reject);
  });
  const reader = packetReader(secure);
  secure.write(framed(2, handshakeResponse(greeting.scramble, 'alice', password)));
  return { reply: await reader.next(), secure };
}

describe('CLIENT_SSL decision', () => {
  it('advertises SSL only when TLS is configured', () => {
    expect(serverCapabilities(false)).toBe(SERVER_CAPABILITIES);
    expect(serverCapabilities(false) & Cap.SSL).toBe(0);
    expect(serverCapabilities(true) & Cap.SSL).toBe(Cap.SSL);
    expect(serverCapabilities(true) & ~Cap.SSL).toBe(SERVER_CAPABILITIES);
  });

  it('recognises an SSLRequest only as the 32-byte prefix with CLIENT_SSL', () => {
    const caps = serverCapabilities(true);
    expect(isSslRequest(sslRequest(), caps)).toBe(true);
    expect(isSslRequest(sslRequest(CLIENT_CAPS), caps)).toBe(false);
    expect(isSslRequest(sslRequest(), serverCapabilities(false))).toBe(false);
    expect(isSslRequest(Buffer.concat([sslRequest(), Buffer.from('root\0')]), caps)).toBe(false);
  });

  it('greets without CLIENT_SSL when TLS is not configured, and refuses an SSLRequest', async () => {
    const c = await RawClient.connect(plainServer.port);
    const hello = decodeHandshakeV10((await c.read())?.payload ?? Buffer.alloc(0));
    expect(hello.capabilities & Cap.SSL).toBe(0);
    c.send(1, sslRequest());
    const reply = await c.read();
    expect(reply && parseErr(reply).errno).toBe(1043);
    c.close();
  });
});

describe('packet decoder hold', () => {
  it('keeps the bytes behind the held packet raw, then releases or resumes them', () => {
    const seen: Packet[] = [];
    const d = new PacketDecoder({ packet: (p) => seen.push(p), tooLarge: () => undefined }, 1 << 20);
    d.holdAfterNext();
    const tail = Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 1, 2]);
    d.push(Buffer.concat([framed(1, Buffer.from('abc')), tail.subarray(0, 3)]));
    d.push(tail.subarray(3));
    expect(seen.map((p) => p.payload.toString())).toEqual(['abc']);
    expect(d.release()).toEqual(tail);
    d.holdAfterNext();
    d.push(Buffer.concat([framed(2, Buffer.from('x')), framed(3, Buffer.from('y'))]));
    expect(seen.length).toBe(2);
    d.resume();
    expect(seen.map((p) => [p.seq, p.payload.toString()])).toEqual([[1, 'abc'], [2, 'x'], [3, 'y']]);
  });
});

describe('certificate files', () => {
  it('loads a matching certificate and key', () => {
    expect(loadTlsContext(certs.cert, certs.key)).toBeDefined();
  });

  it('names the file that cannot be read or used', () => {
    const missing = `${certs.dir}/missing.pem`;
    expect(() => loadTlsContext(missing, certs.key)).toThrow(new RegExp(`cannot read TLS certificate file ${missing}`));
    expect(() => loadTlsContext(certs.cert, missing)).toThrow(new RegExp(`cannot read TLS private key file ${missing}`));
    expect(() => loadTlsContext(certs.key, certs.key)).toThrow(new RegExp(`certificate file ${certs.key} does not hold`));
    expect(() => loadTlsContext(certs.cert, certs.cert)).toThrow(new RegExp(`key file ${certs.cert} does not hold`));
    expect(() => loadTlsContext(certs.cert, certs.otherKey)).toThrow(TlsConfigError);
    expect(() => loadTlsContext(certs.cert, certs.otherKey)).toThrow(/does not match certificate file/);
  });
});

describe('TLS upgrade', () => {
  for (const coalesce of [false, true]) {
    it(`logs in over TLS (ClientHello ${coalesce ? 'in the SSLRequest write' : 'written separately'})`, async () => {
      const before = engine.received.options.length;
      const { reply, secure } = await tlsLogin(tlsServer.port, coalesce);
      expect(reply.payload[0]).toBe(0x00);
      expect(reply.seq).toBe(3);
      const opened = engine.received.options[before];
      expect(opened?.tls?.version).toMatch(/^TLSv1\.[23]$/);
      expect(opened?.tls?.cipher).not.toBe('');
      secure.destroy();
    });
  }

  it('answers a wrong password over TLS with 1045', async () => {
    const { reply, secure } = await tlsLogin(tlsServer.port, false, 'wrong');
    expect(parseErr(reply).errno).toBe(1045);
    secure.destroy();
  });

  it('still serves plain clients when TLS is configured', async () => {
    const c = await RawClient.connect(tlsServer.port);
    const { hello, reply } = await c.login('alice', 's3cret-pw');
    expect(hello.capabilities & Cap.SSL).toBe(Cap.SSL);
    expect(reply?.payload[0]).toBe(0x00);
    expect(engine.received.options.at(-1)?.tls).toBeUndefined();
    c.close();
  });

  it('works with mysql2 (ssl.ca) and rejects ssl against a server without TLS', async () => {
    const ca = readFileSync(certs.cert);
    const c = await mysql.createConnection({ host: '127.0.0.1', port: tlsServer.port, user: 'alice', password: 's3cret-pw', ssl: { ca } });
    const [rows] = await c.query('SELECT 1');
    expect(rows).toEqual([{ 1: 1 }]);
    await c.end();
    const refused = mysql.createConnection({ host: '127.0.0.1', port: plainServer.port, user: 'root', ssl: { rejectUnauthorized: false } });
    await expect(refused).rejects.toMatchObject({ code: 'HANDSHAKE_NO_SSL_SUPPORT' });
  });
});
