/**
 * The floor of a MySQL server written for Node.js on this machine: a stub that speaks just
 * enough of the protocol for `sysbench oltp_point_select` (handshake, COM_STMT_PREPARE,
 * COM_STMT_EXECUTE) and answers every execute with one precomputed row, so the only work per
 * query is what Node itself does: a socket read, framing, one socket write. No SQL, no storage.
 * The TPS sysbench reaches against it bounds what any Node.js SQL server (ShaleDB included)
 * can reach on the same cores; ARCHITECTURE.md ("What bounds read throughput") compares it
 * with ShaleDB and MariaDB.
 *
 *   npx tsx sysbench/node-floor.ts [--port 4640] [--workers 2]
 *   sysbench oltp_point_select --mysql-host=127.0.0.1 --mysql-port=4640 --mysql-user=root \
 *       --tables=1 --table-size=10000 --threads=8 --time=10 run
 *
 * Protocol 4.1 without CLIENT_DEPRECATE_EOF (classic EOF packets); any COM_QUERY gets an OK.
 * It is a measuring stub, not a server: it accepts every login and never checks a statement.
 */
import cluster from 'node:cluster';
import { createServer, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { positiveInt } from './lib/drive.js';
import { runIfMain } from './lib/script.js';
import { readThroughSharedBuffer } from '../src/server/socket-input.js';

const CAPABILITIES = 0x0001 | 0x0004 | 0x0008 | 0x0200 | 0x2000 | 0x8000 | 0x20000 | 0x80000;
const STATUS_AUTOCOMMIT = 0x0002;
export const ROW_VALUE = '83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330';

/** One packet: 3-byte little-endian length, sequence id, payload. */
export function packet(seq: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  head[3] = seq;
  return Buffer.concat([head, payload]);
}

function lenencString(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length >= 251) throw new Error('stub strings are short');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

function handshake(connectionId: number): Buffer {
  const salt = Buffer.from('abcdefghijklmnopqrst', 'latin1');
  const fixed = Buffer.alloc(4 + 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10);
  let o = fixed.writeUInt32LE(connectionId, 0);
  o += salt.copy(fixed, o, 0, 8);
  o = fixed.writeUInt8(0, o);
  o = fixed.writeUInt16LE(CAPABILITIES & 0xffff, o);
  o = fixed.writeUInt8(255, o);
  o = fixed.writeUInt16LE(STATUS_AUTOCOMMIT, o);
  o = fixed.writeUInt16LE(CAPABILITIES >>> 16, o);
  fixed.writeUInt8(21, o);
  return Buffer.concat([
    Buffer.from([10]),
    Buffer.from('8.0.36-node-floor\0', 'latin1'),
    fixed,
    salt.subarray(8),
    Buffer.from([0]),
    Buffer.from('mysql_native_password\0', 'latin1'),
  ]);
}

const OK = Buffer.from([0x00, 0x00, 0x00, STATUS_AUTOCOMMIT, 0x00, 0x00, 0x00]);
const EOF = Buffer.from([0xfe, 0x00, 0x00, STATUS_AUTOCOMMIT, 0x00]);

function columnDef(name: string, type: number, length: number): Buffer {
  const tail = Buffer.alloc(13);
  tail[0] = 0x0c;
  tail.writeUInt16LE(255, 1);
  tail.writeUInt32LE(length, 3);
  tail[7] = type;
  return Buffer.concat([lenencString('def'), lenencString('sbtest'), lenencString('sbtest1'), lenencString('sbtest1'), lenencString(name), lenencString(name), tail]);
}

/** Prepare response for a statement with one parameter and one column (a point select). */
function prepareReply(stmtId: number): Buffer {
  const ok = Buffer.alloc(12);
  ok.writeUInt32LE(stmtId, 1);
  ok.writeUInt16LE(1, 5);
  ok.writeUInt16LE(1, 7);
  return Buffer.concat([packet(1, ok), packet(2, columnDef('?', 0xfd, 0)), packet(3, EOF), packet(4, columnDef('c', 0xfe, 480)), packet(5, EOF)]);
}

/** The whole binary result set of one execute: one column, one row. */
export const EXECUTE_REPLY = Buffer.concat([
  packet(1, Buffer.from([1])),
  packet(2, columnDef('c', 0xfe, 480)),
  packet(3, EOF),
  packet(4, Buffer.concat([Buffer.from([0x00, 0x00]), lenencString(ROW_VALUE)])),
  packet(5, EOF),
]);

const COM_QUIT = 0x01;
const COM_STMT_PREPARE = 0x16;
const COM_STMT_EXECUTE = 0x17;
const COM_STMT_CLOSE = 0x19;

/**
 * Serves one connection: frames packets out of the byte stream, answers each command. Reads go
 * through the server's shared read buffer (src/server/socket-input.ts), as ShaleDB's do.
 */
export function serveStub(accepted: Socket, connectionId: number): void {
  let authed = false;
  let nextStmt = 1;
  let pending: Buffer = Buffer.alloc(0);
  const onChunk = (chunk: Buffer): void => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const len = pending.readUIntLE(0, 3);
      if (pending.length < 4 + len) break;
      const command = pending[4];
      pending = pending.subarray(4 + len);
      if (!authed) {
        authed = true;
        socket.write(packet(2, OK));
      } else if (command === COM_STMT_EXECUTE) socket.write(EXECUTE_REPLY);
      else if (command === COM_STMT_PREPARE) socket.write(prepareReply(nextStmt++));
      else if (command === COM_QUIT) socket.end();
      else if (command !== COM_STMT_CLOSE) socket.write(packet(1, OK));
    }
  };
  const adopted = readThroughSharedBuffer(accepted, onChunk);
  const socket = adopted ?? accepted;
  if (adopted === undefined) socket.on('data', onChunk);
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  socket.write(packet(0, handshake(connectionId)));
}

/** Serves until SIGTERM/SIGINT; with --workers > 1 as that many node:cluster workers. */
async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({ args: [...argv], options: { port: { type: 'string' }, workers: { type: 'string' } } });
  const port = positiveInt('port', values.port, 4640);
  const workers = positiveInt('workers', values.workers, 2);
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  if (cluster.isPrimary && workers > 1) {
    const forked = Array.from({ length: workers }, () => cluster.fork());
    await stopped;
    for (const w of forked) w.kill('SIGTERM');
    return;
  }
  let ids = (cluster.worker?.id ?? 0) << 20;
  const server = createServer((socket) => serveStub(socket, ++ids)).listen(port, '127.0.0.1');
  await stopped;
  server.close();
}

runIfMain(import.meta.url, 'node-floor', main);
