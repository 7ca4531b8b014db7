/**
 * Binary-safe statement text: raw bytes that are not valid UTF-8 inside string literals (as
 * `mariadb-dump` without --hex-blob writes BLOBs, or any client building a query from bytes)
 * reach binary columns and binary string functions unchanged; a utf8mb4 column rejects them with
 * 1366 in strict mode. Statements are sent as raw COM_QUERY / COM_STMT_PREPARE packets (mysql2's
 * `query` takes strings only); results are read back through mysql2.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comExecute, comPrepare, comQuery, lenencBytes, type BoundParam } from '../helpers/mysql-packets.js';
import { removeDir, startTestNode, type TestNode } from '../helpers/node.js';
import { WireClient, errOf, type ReadResult } from '../server/helpers/wire-client.js';

const run = promisify(execFile);
const DUMP_TOOLS = ['/usr/bin/mariadb-dump', '/usr/bin/mariadb'];
const noDump = DUMP_TOOLS.some((t) => !existsSync(t));

/** mysql_real_escape_string: \0 ' " \ \n \r ^Z escaped, every other byte raw. */
function escapeBytes(b: Uint8Array): Buffer {
  const out: number[] = [];
  const map: Record<number, string> = { 0: '0', 0x27: "'", 0x22: '"', 0x5c: '\\', 0x0a: 'n', 0x0d: 'r', 0x1a: 'Z' };
  for (const x of b) {
    const e = map[x];
    if (e === undefined) out.push(x);
    else out.push(0x5c, e.charCodeAt(0));
  }
  return Buffer.from(out);
}

/** SQL text with `parts` joined; a Uint8Array part becomes an escaped '...' literal body. */
function text(...parts: ReadonlyArray<string | Uint8Array>): Buffer {
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : escapeBytes(p))));
}

/** COM_QUERY of `text(...parts)`. */
const sql = (...parts: ReadonlyArray<string | Uint8Array>): Buffer => comQuery(text(...parts));

/** MYSQL_TYPE_VAR_STRING: a parameter decoded as text in the connection character set. */
const VAR_STRING = 0xfd;
const ALL = Uint8Array.from({ length: 256 }, (_, i) => i);
/** Valid UTF-8 (é, 😀) mixed with stray continuation bytes, a truncated sequence and 0xFF. */
const MIXED = Uint8Array.from([0x61, 0xc3, 0xa9, 0x80, 0xf0, 0x9f, 0x98, 0x80, 0xe2, 0x82, 0xff, 0xed, 0xb2, 0x80, 0x62]);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

describe('binary-safe statement text', () => {
  let node: TestNode;
  let wire: WireClient;
  let db: mysql.Connection;

  /** Sends one raw statement, returns the first reply packet. */
  async function raw(payload: Buffer): Promise<ReadResult> {
    wire.send(0, payload);
    return wire.read(10_000);
  }

  async function ok(payload: Buffer): Promise<void> {
    const r = await raw(payload);
    expect(errOf(r)).toBeNull();
    expect(typeof r === 'string' ? r : r.payload[0]).toBe(0x00);
  }

  beforeAll(async () => {
    node = await startTestNode('embedded');
    db = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', multipleStatements: true });
    await db.query(`CREATE DATABASE bl; USE bl;
      CREATE TABLE t (id INT PRIMARY KEY, vb VARBINARY(300), bl BLOB, bn BINARY(16), c VARCHAR(20), h TEXT, n INT)`);
    wire = await WireClient.connect(node.port);
    expect(errOf(await wire.login())).toBeNull();
    await ok(sql('USE bl'));
  }, 60_000);

  afterAll(async () => {
    wire?.destroy();
    await db?.end();
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  async function row(id: number): Promise<Record<string, unknown>> {
    const [rows] = await db.query(`SELECT * FROM bl.t WHERE id = ${id}`);
    return (rows as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
  }

  it('stores all 256 byte values in VARBINARY and BLOB and reads them back', async () => {
    await ok(sql("INSERT INTO t (id, vb, bl) VALUES (1, '", ALL, "', '", ALL, "')"));
    const r = await row(1);
    expect(Buffer.compare(r['vb'] as Buffer, Buffer.from(ALL))).toBe(0);
    expect(Buffer.compare(r['bl'] as Buffer, Buffer.from(ALL))).toBe(0);
    const [h] = await db.query('SELECT HEX(vb) AS a, HEX(bl) AS b, LENGTH(vb) AS l FROM bl.t WHERE id = 1');
    expect(h).toEqual([{ a: hex(ALL), b: hex(ALL), l: 256 }]);
  });

  it('keeps mixed valid and invalid UTF-8 bytes, and binary string functions see the bytes', async () => {
    await ok(sql("INSERT INTO t (id, vb, bl, bn, h, n) VALUES (2, '", MIXED, "', _binary'", MIXED, "', CAST('", MIXED,
      "' AS BINARY), HEX('", MIXED, "'), LENGTH('", MIXED, "'))"));
    const r = await row(2);
    expect(hex(r['vb'] as Buffer)).toBe(hex(MIXED));
    expect(hex(r['bl'] as Buffer)).toBe(hex(MIXED));
    expect(hex(r['bn'] as Buffer)).toBe(`${hex(MIXED)}00`);
    expect(r['h']).toBe(hex(MIXED));
    expect(r['n']).toBe(MIXED.length);
  });

  it('compares a binary column with a raw-byte literal', async () => {
    const r = await raw(sql("UPDATE t SET n = 99 WHERE vb = '", MIXED, "'"));
    expect(errOf(r)).toBeNull();
    expect((await row(2))['n']).toBe(99);
  });

  it('rejects invalid bytes for a utf8mb4 column with 1366 in strict mode', async () => {
    const r = await raw(sql("INSERT INTO t (id, c) VALUES (3, 'a", Uint8Array.from([0xff, 0xfe]), "b')"));
    expect(errOf(r)).toEqual({ errno: 1366, message: "Incorrect string value: '\\xFF\\xFEb' for column 'c' at row 1" });
    const long = await raw(sql("INSERT INTO t (id, c) VALUES (3, '", Uint8Array.from([0xe2, 0x82, 0x61, 0x62, 0x63, 0x64, 0x65]), "')"));
    expect(errOf(long)?.message).toBe("Incorrect string value: '\\xE2\\x82abcd...' for column 'c' at row 1");
    const x = await raw(sql("INSERT INTO t (id, c) VALUES (3, x'61FF')"));
    expect(errOf(x)?.errno).toBe(1366);
  });

  it('stores ? per invalid byte with a warning outside strict mode', async () => {
    await ok(sql("SET sql_mode = ''"));
    await ok(sql("INSERT INTO t (id, c) VALUES (4, 'a", Uint8Array.from([0xff, 0xfe]), "b')"));
    await ok(sql("SET sql_mode = DEFAULT"));
    expect((await row(4))['c']).toBe('a??b');
  });

  it('decodes COM_STMT_PREPARE text binary-safely too', async () => {
    const prep = await raw(comPrepare(text("INSERT INTO t (id, vb) VALUES (5, '", ALL, "')")));
    expect(errOf(prep)).toBeNull();
    if (typeof prep === 'string') throw new Error(`prepare: ${prep}`);
    const stmtId = prep.payload.readUInt32LE(1);
    const exec = await raw(comExecute({ stmtId, params: [] }));
    expect(errOf(exec)).toBeNull();
    expect(Buffer.compare((await row(5))['vb'] as Buffer, Buffer.from(ALL))).toBe(0);
  });

  it('decodes string-typed binary-protocol parameters binary-safely', async () => {
    const prep = await raw(comPrepare(text('INSERT INTO t (id, vb, c) VALUES (?, ?, ?)')));
    if (typeof prep === 'string' || errOf(prep) !== null) throw new Error('prepare failed');
    const stmtId = prep.payload.readUInt32LE(1);
    for (let i = 0; i < 4; i++) await wire.read(10_000); // 3 param definitions + EOF
    const param = (b: Uint8Array): BoundParam => ({ type: VAR_STRING, value: lenencBytes(b) });
    const id = (n: number): BoundParam => ({ type: 0x03, value: Buffer.from([n, 0, 0, 0]) });
    expect(errOf(await raw(comExecute({ stmtId, params: [id(7), param(ALL), param(Buffer.from('ok'))] })))).toBeNull();
    expect(Buffer.compare((await row(7))['vb'] as Buffer, Buffer.from(ALL))).toBe(0);
    const bad = await raw(comExecute({ stmtId, params: [id(8), param(ALL), param(Uint8Array.from([0x61, 0xff]))] }));
    expect(errOf(bad)).toEqual({ errno: 1366, message: "Incorrect string value: '\\xFF' for column 'c' at row 1" });
  });

  it('keeps valid UTF-8 text unchanged', async () => {
    await ok(sql("INSERT INTO t (id, c, h) VALUES (6, 'é😀中文\uFFFD', 'plain')"));
    const r = await row(6);
    expect(r['c']).toBe('é😀中文\uFFFD');
  });

  it.skipIf(noDump)('round-trips a BLOB table through mariadb-dump without --hex-blob', async () => {
    const args = ['-h127.0.0.1', `-P${node.port}`, '-uroot', '--skip-ssl', '--default-character-set=utf8mb4'];
    const { stdout } = await run('mariadb-dump', [...args, 'bl', 't'], { encoding: 'buffer', maxBuffer: 64 << 20 });
    expect(stdout.includes(Buffer.from([0xfe, 0xff]))).toBe(true); // raw bytes, not hex
    await db.query('CREATE DATABASE bl2');
    await new Promise<void>((resolve, reject) => {
      const child = execFile('mariadb', [...args, 'bl2'], (err) => (err ? reject(err) : resolve()));
      child.stdin?.end(stdout);
    });
    const [a] = await db.query('SELECT id, HEX(vb) v, HEX(bl) b, HEX(bn) n, c FROM bl.t ORDER BY id');
    const [b] = await db.query('SELECT id, HEX(vb) v, HEX(bl) b, HEX(bn) n, c FROM bl2.t ORDER BY id');
    expect(b).toEqual(a);
  }, 60_000);
});
