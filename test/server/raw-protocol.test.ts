import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha2Token } from '../../src/server/auth-crypto.js';
import { Command, WireType } from '../../src/server/constants.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { PacketWriter } from '../../src/server/packet-writer.js';
import { decodeColumnDefinition } from '../../src/server/packets/column-definition.js';
import { encodeHandshakeResponse } from '../../src/server/packets/handshake-response.js';
import { decodeHandshakeV10 } from '../../src/server/packets/handshake-v10.js';
import { FakeEngine } from './helpers/fake-engine.js';
import { CLIENT_CAPS, RawClient, command, parseErr } from './helpers/raw-client.js';

let engine: FakeEngine;
let server: RunningServer;
const MAX_PACKET = 1 << 20;

beforeAll(async () => {
  engine = new FakeEngine();
  server = await startServer({ host: '127.0.0.1', port: 0, engine, logger: pino({ level: 'silent' }), maxAllowedPacket: MAX_PACKET });
});

afterAll(async () => {
  await server.close();
  expect(engine.received.closes.size).toBe(engine.received.sessionsOpened);
  for (const n of engine.received.closes.values()) expect(n).toBe(1);
});

async function loggedIn(): Promise<RawClient> {
  const c = await RawClient.connect(server.port);
  const { reply } = await c.login();
  expect(reply?.payload[0]).toBe(0x00);
  expect(reply?.seq).toBe(2);
  return c;
}

/** A fresh mysql2 connection still works (the server survived whatever came before). */
async function stillServes(): Promise<void> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  const [rows] = await c.query('SELECT 1');
  expect(rows).toEqual([{ 1: 1 }]);
  await c.end();
}

function u32(n: number): number[] {
  return [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
}

describe('raw protocol', () => {
  it('keeps sticky parameter types across executes with new_params_bound = 0', async () => {
    const c = await loggedIn();
    c.send(0, command(Command.STMT_PREPARE, 'SELECT ?, ?'));
    const prepOk = await c.read();
    expect(prepOk?.payload[0]).toBe(0);
    expect(prepOk?.seq).toBe(1);
    const stmtId = prepOk?.payload.readUInt32LE(1) ?? 0;
    expect(stmtId).toBe(1);
    expect(prepOk?.payload.readUInt16LE(5)).toBe(1); // columns
    expect(prepOk?.payload.readUInt16LE(7)).toBe(2); // params
    const paramDef = decodeColumnDefinition((await c.read())?.payload ?? Buffer.alloc(0));
    expect(paramDef).toMatchObject({ name: '?', type: WireType.VAR_STRING, charset: 63 });
    await c.read(); // 2nd param
    expect((await c.read())?.payload[0]).toBe(0xfe);
    await c.read(); // column
    const lastEof = await c.read();
    expect(lastEof?.payload[0]).toBe(0xfe);
    expect(lastEof?.seq).toBe(6);

    const exec1 = [...u32(stmtId), 0, ...u32(1), 0b00, 1, WireType.LONGLONG, 0, WireType.VAR_STRING, 0, ...[42, 0, 0, 0, 0, 0, 0, 0], 2, 0x6f, 0x6b];
    c.send(0, command(Command.STMT_EXECUTE, Buffer.from(exec1)));
    const exec2 = [...u32(stmtId), 0, ...u32(1), 0b10, 0, ...[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]];
    c.send(0, command(Command.STMT_EXECUTE, Buffer.from(exec2)));
    // two binary result sets: count, column, EOF, row, EOF
    for (let i = 0; i < 10; i++) await c.read();
    expect(engine.received.executes.slice(-2).map((e) => e.params)).toEqual([[42n, 'ok'], [-1n, null]]);

    // STMT_RESET forgets the types: bound = 0 is now an error
    c.send(0, command(Command.STMT_RESET, Buffer.from(u32(stmtId))));
    expect((await c.read())?.payload[0]).toBe(0);
    c.send(0, command(Command.STMT_EXECUTE, Buffer.from(exec2)));
    expect(parseErr((await c.read()) ?? never())).toEqual({ errno: 1210, sqlState: 'HY000', message: 'Incorrect arguments to mysqld_stmt_execute' });
    // truncated values: malformed, as MySQL 8.0's parse_packet reports them
    c.send(0, command(Command.STMT_EXECUTE, Buffer.from(exec1.slice(0, -3))));
    expect(parseErr((await c.read()) ?? never()).errno).toBe(1835);
    // long data replaces the value of param 1
    c.send(0, command(Command.STMT_SEND_LONG_DATA, Buffer.from([...u32(stmtId), 1, 0, 0x61, 0x62])));
    c.send(0, command(Command.STMT_SEND_LONG_DATA, Buffer.from([...u32(stmtId), 1, 0, 0x63])));
    c.send(0, command(Command.STMT_EXECUTE, Buffer.from(exec1.slice(0, -3))));
    for (let i = 0; i < 5; i++) await c.read();
    expect(engine.received.executes.at(-1)?.params).toEqual([42n, 'abc']);
    // unknown statement ids; STMT_CLOSE is silent
    c.send(0, command(Command.STMT_CLOSE, Buffer.from(u32(stmtId))));
    c.send(0, command(Command.STMT_EXECUTE, Buffer.from(exec1)));
    expect(parseErr((await c.read()) ?? never())).toEqual({
      errno: 1243, sqlState: 'HY000', message: 'Unknown prepared statement handler (1) given to mysqld_stmt_execute',
    });
    c.close();
  });

  it('sends a finished reply without waiting for a command pipelined after it', async () => {
    const c = await loggedIn();
    engine.hold();
    try {
      c.send(0, command(Command.QUERY, 'SELECT 1'));
      c.send(0, command(Command.QUERY, 'WAIT'));
      // SELECT 1's result set (count, column, EOF, row, EOF) comes while WAIT still runs.
      const packets = [];
      for (let i = 0; i < 5; i++) packets.push(await c.read());
      expect(packets.map((p) => p?.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(packets[3]?.payload.toString('utf8', 1)).toBe('1');
      expect(engine.received.queries.at(-1)).toBe('WAIT');
    } finally {
      engine.release();
    }
    expect((await c.read())?.payload[0]).toBe(0);
    c.send(0, command(Command.PING));
    expect((await c.read())?.payload[0]).toBe(0);
    c.close();
  });

  it('answers the small commands', async () => {
    const c = await loggedIn();
    c.send(0, command(Command.PING));
    c.send(0, command(Command.PING)); // pipelined in the same chunk or not
    expect((await c.read())?.payload[0]).toBe(0);
    expect((await c.read())?.payload[0]).toBe(0);
    c.send(0, command(Command.STATISTICS));
    expect((await c.read())?.payload.toString()).toBe(
      'Uptime: 10  Threads: 1  Questions: 25  Slow queries: 0  Opens: 0  Flush tables: 1  Open tables: 3  Queries per second avg: 2.500',
    );
    c.send(0, command(Command.FIELD_LIST, 't\0'));
    const f1 = await c.read();
    const f2 = await c.read();
    expect(decodeColumnDefinition(f1?.payload ?? Buffer.alloc(0)).name).toBe('id');
    expect(f1?.payload.at(-1)).toBe(0xfb);
    expect(f2?.payload.subarray(-4).toString()).toBe('\x03abc');
    expect((await c.read())?.payload[0]).toBe(0xfe);
    c.send(0, command(Command.FIELD_LIST, 'nope\0'));
    expect(parseErr((await c.read()) ?? never()).errno).toBe(1051);
    c.send(0, command(Command.INIT_DB, 'app'));
    expect((await c.read())?.payload[0]).toBe(0);
    c.send(0, command(Command.INIT_DB, 'nope'));
    expect(parseErr((await c.read()) ?? never())).toEqual({ errno: 1049, sqlState: '42000', message: "Unknown database 'nope'" });
    c.send(0, command(Command.QUERY, 'DB'));
    for (let i = 0; i < 3; i++) await c.read();
    expect((await c.read())?.payload.toString('utf8', 1)).toBe('app');
    await c.read();
    // SET_OPTION off -> multi-statements rejected; on -> accepted
    c.send(0, command(Command.SET_OPTION, Buffer.from([1, 0])));
    expect((await c.read())?.payload[0]).toBe(0xfe);
    c.send(0, command(Command.QUERY, 'SELECT 1; SELECT 1'));
    expect(parseErr((await c.read()) ?? never()).errno).toBe(1064);
    c.send(0, command(Command.SET_OPTION, Buffer.from([0, 0])));
    expect((await c.read())?.payload[0]).toBe(0xfe);
    c.send(0, command(Command.QUERY, 'BEGIN; COMMIT'));
    const ok1 = (await c.read())?.payload ?? never();
    const ok2 = (await c.read())?.payload ?? never();
    expect(ok1.readUInt16LE(3)).toBe(0x08 | 0x02 | 0x01); // MORE_RESULTS | AUTOCOMMIT | IN_TRANS
    expect(ok2.readUInt16LE(3)).toBe(0x02);
    c.send(0, command(0x05));
    expect(parseErr((await c.read()) ?? never())).toEqual({ errno: 1047, sqlState: '08S01', message: 'Unknown command' });
    c.send(0, Buffer.alloc(0));
    expect(parseErr((await c.read()) ?? never()).errno).toBe(1047);
    c.send(0, command(Command.SET_OPTION, Buffer.from([1])));
    expect(parseErr((await c.read()) ?? never()).errno).toBe(1835);
    c.send(0, command(Command.QUIT));
    expect(await c.read()).toBeNull();
  });

  it('keeps responses intact while the socket is backed up (the response buffer is reused only after a whole write)', async () => {
    const c = await loggedIn();
    c.pause();
    // Responses of 7-11 KB (under the socket's 16 KB high-water mark, so the server goes on to
    // the next command while a partly written one is still queued), ~7 MB in all.
    const counts = Array.from({ length: 800 }, (_, k) => 60 + (k % 40));
    for (const n of counts) c.send(0, command(Command.QUERY, `SELECT MANY ${n}`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    c.resume();
    for (const n of counts) {
      expect((await c.read())?.payload[0]).toBe(2);
      for (let i = 0; i < 3; i++) await c.read(); // 2 column definitions, EOF
      for (let i = 0; i < n; i++) {
        const row = (await c.read())?.payload ?? never();
        const id = String(i);
        expect(row.toString('latin1')).toBe(`${String.fromCharCode(id.length)}${id}\x64${'x'.repeat(100)}`);
      }
      expect((await c.read())?.payload[0]).toBe(0xfe);
    }
    c.close();
  });

  it('rejects packets above max_allowed_packet with 1153 and closes', async () => {
    const c = await loggedIn();
    c.sendRaw(Buffer.from([0xff, 0xff, 0x1f, 0x00, Command.QUERY]));
    const err = await c.read();
    expect(err?.seq).toBe(1);
    expect(parseErr(err ?? never())).toEqual({ errno: 1153, sqlState: '08S01', message: "Got a packet bigger than 'max_allowed_packet' bytes" });
    expect(await c.read()).toBeNull();
    await stillServes();
  });

  it('authenticates with caching_sha2 fast auth, AuthSwitch, and native-only clients', async () => {
    const c1 = await RawClient.connect(server.port);
    const greeting = await c1.read();
    const { scramble } = decodeHandshakeV10(greeting?.payload ?? never());
    const pw = new PacketWriter();
    encodeHandshakeResponse(pw, {
      capabilities: CLIENT_CAPS, maxPacket: 0, charset: 45, user: 'alice', authResponse: sha2Token('s3cret-pw', scramble),
      database: 'test', authPlugin: 'caching_sha2_password', attributes: new Map(),
    });
    c1.send(1, pw.take());
    const more = await c1.read();
    expect([...(more?.payload ?? [])]).toEqual([0x01, 0x03]);
    expect(more?.seq).toBe(2);
    const ok = await c1.read();
    expect([ok?.payload[0], ok?.seq]).toEqual([0, 3]);
    c1.close();

    // empty caching_sha2 token -> AuthSwitchRequest(native) -> native token of the new scramble
    const c2 = await RawClient.connect(server.port);
    const { reply } = await c2.login('root', '', { plugin: 'caching_sha2_password', token: Buffer.alloc(0) });
    expect(reply?.payload[0]).toBe(0xfe);
    expect(reply?.payload.toString('latin1', 1, 22)).toBe('mysql_native_password');
    expect(reply?.payload.length).toBe(1 + 22 + 21);
    c2.send(3, Buffer.alloc(0));
    const ok2 = await c2.read();
    expect([ok2?.payload[0], ok2?.seq]).toEqual([0, 4]);
    c2.close();

    // a native-only client (no PLUGIN_AUTH) with the wrong password is never switched
    const c3 = await RawClient.connect(server.port);
    const noPlugin = 0x0006f3cf & ~0x80000;
    const res = await c3.login('alice', 'wrong', { caps: noPlugin, plugin: 'caching_sha2_password' });
    expect(parseErr(res.reply ?? never())).toEqual({ errno: 1045, sqlState: '28000', message: "Access denied for user 'alice'@'127.0.0.1' (using password: YES)" });
    expect(await c3.read()).toBeNull();

    // garbage instead of a handshake response
    const c4 = await RawClient.connect(server.port);
    await c4.read();
    c4.send(1, Buffer.from([1, 2, 3]));
    expect(parseErr((await c4.read()) ?? never()).errno).toBe(1043);
    expect(await c4.read()).toBeNull();
  });

  it('survives garbage, truncated packets and abrupt disconnects', async () => {
    const opened = engine.received.sessionsOpened;
    const junk: Buffer[] = [
      Buffer.from([0x05, 0x00, 0x00, 0x00, Command.STMT_EXECUTE, 1]), // truncated payload, then close
      Buffer.from([0x03, 0x00, 0x00, 0x00, Command.STMT_PREPARE, 0xff, 0xfe]),
      Buffer.from([0x02, 0x00, 0x00, 0x00, Command.CHANGE_USER, 0x61]),
      Buffer.from([0x01, 0x00, 0x00, 0x00, Command.FIELD_LIST]),
      Buffer.from([0x03, 0x00, 0x00, 0x07, Command.STMT_RESET, 1, 2]),
      Buffer.from([0x02, 0x00, 0x00, 0x00, Command.STMT_CLOSE, 1, 0x02, 0, 0, 0, Command.STMT_SEND_LONG_DATA, 1]),
    ];
    let seed = 12345;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let i = 0; i < 8; i++) junk.push(Buffer.from(Array.from({ length: 40 + i * 7 }, rand)));
    for (const bytes of junk) {
      const c = await loggedIn();
      c.sendRaw(bytes);
      // whatever comes back must be well-formed; then hang up abruptly
      await new Promise((r) => setTimeout(r, 20));
      c.close();
    }
    // garbage before the handshake response, too
    for (const bytes of junk.slice(-3)) {
      const c = await RawClient.connect(server.port);
      await c.read();
      c.sendRaw(bytes);
      await new Promise((r) => setTimeout(r, 20));
      c.close();
    }
    await stillServes();
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.received.sessionsOpened).toBeGreaterThan(opened);
    for (const n of engine.received.closes.values()) expect(n).toBe(1);
  });

  it('numbers connections from 1 upwards', async () => {
    const a = await RawClient.connect(server.port);
    const b = await RawClient.connect(server.port);
    const ida = decodeHandshakeV10((await a.read())?.payload ?? never()).connectionId;
    const idb = decodeHandshakeV10((await b.read())?.payload ?? never()).connectionId;
    expect(idb).toBeGreaterThan(ida);
    expect(ida).toBeGreaterThan(1);
    a.close();
    b.close();
  });
});

function never(): never {
  throw new Error('missing packet');
}
