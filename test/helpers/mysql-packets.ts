/**
 * Client-side builders for raw MySQL protocol packets (protocol tests and the fuzzer): framing
 * with explicit or wrong lengths, HandshakeResponse41 with a mysql_native_password token,
 * command packets and COM_STMT_EXECUTE with binary parameters. Nothing here validates: the
 * builders write whatever they are given, so tests can produce broken packets on purpose.
 * Spec: /work/shared/reference/mysql-protocol.md §1.1, §1.3, §2, §2.2.
 */
import { nativeToken } from '../../src/server/auth-crypto.js';
import { ByteWriter } from '../../src/server/byte-writer.js';
import { Cap, Command, WireType } from '../../src/server/constants.js';

export { nativeToken };

/** LONG_PASSWORD..CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS, SECURE, MULTI_*, PLUGIN_AUTH, ATTRS, LENENC. */
export const CLIENT_CAPS = 0x003ba20f;

function bytesOf(w: ByteWriter): Buffer {
  return Buffer.from(w.buf.subarray(0, w.pos));
}

/** One physical packet: 3-byte length, sequence id, payload (payload < 16 MiB). */
export function frame(seq: number, payload: Uint8Array): Buffer {
  return frameDeclared(payload.length, seq, payload);
}

/** A packet whose header declares `declared` bytes, whatever the payload really holds. */
export function frameDeclared(declared: number, seq: number, payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + payload.length);
  out.writeUIntLE(declared & 0xffffff, 0, 3);
  out[3] = seq & 0xff;
  out.set(payload, 4);
  return out;
}

export function lenencInt(n: number | bigint): Buffer {
  const w = new ByteWriter(16);
  w.lenencInt(n);
  return bytesOf(w);
}

export function lenencBytes(b: Uint8Array): Buffer {
  return Buffer.concat([lenencInt(b.length), b]);
}

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n & 0xffff);
  return b;
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

export interface HandshakeResponseSpec {
  readonly caps?: number;
  readonly maxPacket?: number;
  readonly charset?: number;
  readonly user?: Uint8Array | string;
  /** The auth token; encoded per caps (lenenc, 1-byte length, or NUL-terminated). */
  readonly token?: Uint8Array;
  readonly database?: Uint8Array | string;
  readonly plugin?: Uint8Array | string;
  /** The raw connect-attributes block, written as is (a broken lenenc is the caller's business). */
  readonly attrs?: Uint8Array;
}

function text(v: Uint8Array | string): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
}

/** Connect attributes as a lenenc-prefixed block of lenenc key/value pairs. */
export function connectAttrs(pairs: ReadonlyArray<readonly [string, string]>): Buffer {
  const body = Buffer.concat(pairs.flatMap(([k, v]) => [lenencBytes(text(k)), lenencBytes(text(v))]));
  return lenencBytes(body);
}

/** HandshakeResponse41 payload. Fields follow the caps the spec names, not what the server accepts. */
export function handshakeResponse(s: HandshakeResponseSpec): Buffer {
  const caps = s.caps ?? CLIENT_CAPS;
  const token = Buffer.from(s.token ?? new Uint8Array(0));
  const parts: Buffer[] = [u32(caps), u32(s.maxPacket ?? 0), Buffer.from([s.charset ?? 45]), Buffer.alloc(23)];
  parts.push(text(s.user ?? 'root'), Buffer.from([0]));
  if (caps & Cap.PLUGIN_AUTH_LENENC_CLIENT_DATA) parts.push(lenencBytes(token));
  else if (caps & Cap.SECURE_CONNECTION) parts.push(Buffer.from([token.length & 0xff]), token);
  else parts.push(token, Buffer.from([0]));
  if (caps & Cap.CONNECT_WITH_DB) parts.push(text(s.database ?? ''), Buffer.from([0]));
  if (caps & Cap.PLUGIN_AUTH) parts.push(text(s.plugin ?? 'mysql_native_password'), Buffer.from([0]));
  if (caps & Cap.CONNECT_ATTRS) parts.push(Buffer.from(s.attrs ?? connectAttrs([['_client_name', 'fuzz']])));
  return Buffer.concat(parts);
}

/** Command payload: command byte + body. */
export function command(code: number, body: Uint8Array | string = new Uint8Array(0)): Buffer {
  return Buffer.concat([Buffer.from([code & 0xff]), text(body)]);
}

export const comQuery = (sql: Uint8Array | string): Buffer => command(Command.QUERY, sql);
export const comInitDb = (db: Uint8Array | string): Buffer => command(Command.INIT_DB, db);
export const comPing = (): Buffer => command(Command.PING);
export const comQuit = (): Buffer => command(Command.QUIT);
export const comPrepare = (sql: Uint8Array | string): Buffer => command(Command.STMT_PREPARE, sql);
export const comStmtClose = (id: number): Buffer => command(Command.STMT_CLOSE, u32(id));
export const comStmtReset = (id: number): Buffer => command(Command.STMT_RESET, u32(id));

/** COM_FIELD_LIST: table NUL + wildcard. */
export function comFieldList(table: Uint8Array | string, wildcard: Uint8Array | string = ''): Buffer {
  return command(Command.FIELD_LIST, Buffer.concat([text(table), Buffer.from([0]), text(wildcard)]));
}

export function comLongData(stmtId: number, paramId: number, data: Uint8Array): Buffer {
  return command(Command.STMT_SEND_LONG_DATA, Buffer.concat([u32(stmtId), u16(paramId), data]));
}

export interface ChangeUserSpec {
  readonly user: Uint8Array | string;
  readonly token: Uint8Array;
  readonly database?: Uint8Array | string;
  readonly charset?: number;
  readonly plugin?: Uint8Array | string;
}

/** COM_CHANGE_USER with a 1-byte auth length (SECURE_CONNECTION). */
export function comChangeUser(s: ChangeUserSpec): Buffer {
  return command(
    Command.CHANGE_USER,
    Buffer.concat([
      text(s.user), Buffer.from([0]), Buffer.from([s.token.length & 0xff]), s.token,
      text(s.database ?? ''), Buffer.from([0]), u16(s.charset ?? 45), text(s.plugin ?? 'mysql_native_password'), Buffer.from([0]),
    ]),
  );
}

/** One bound parameter of COM_STMT_EXECUTE: wire type, unsigned flag, encoded value (absent for NULL). */
export interface BoundParam {
  readonly type: number;
  readonly unsigned?: boolean;
  /** The encoded value, or null for a NULL (bitmap bit set, no value bytes). */
  readonly value: Uint8Array | null;
}

export interface ExecuteSpec {
  readonly stmtId: number;
  readonly flags?: number;
  readonly iterations?: number;
  readonly params: readonly BoundParam[];
  /** Non-zero sends the types (clients send 1), 0 reuses the statement's last ones. */
  readonly newParamsBound?: number;
}

/** COM_STMT_EXECUTE with a NULL bitmap, new-params-bound flag, types and values for `params`. */
export function comExecute(s: ExecuteSpec): Buffer {
  const n = s.params.length;
  const parts: Buffer[] = [u32(s.stmtId), Buffer.from([s.flags ?? 0]), u32(s.iterations ?? 1)];
  if (n > 0) {
    const bitmap = Buffer.alloc((n + 7) >> 3);
    s.params.forEach((p, i) => {
      if (p.value === null) bitmap[i >> 3] = (bitmap[i >> 3] as number) | (1 << (i & 7));
    });
    const bound = s.newParamsBound ?? 1;
    parts.push(bitmap, Buffer.from([bound]));
    if (bound !== 0) for (const p of s.params) parts.push(Buffer.from([p.type, p.unsigned ? 0x80 : 0]));
    for (const p of s.params) if (p.value !== null) parts.push(Buffer.from(p.value));
  }
  return command(Command.STMT_EXECUTE, Buffer.concat(parts));
}

/** Binary encodings of parameter values (mysql-protocol.md §2.2). */
export const bin = {
  tiny: (v: number): BoundParam => ({ type: WireType.TINY, value: Buffer.from([v & 0xff]) }),
  longlong(v: bigint): BoundParam {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt.asUintN(64, v));
    return { type: WireType.LONGLONG, value: b };
  },
  double(v: number): BoundParam {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    return { type: WireType.DOUBLE, value: b };
  },
  string: (v: Uint8Array | string, type: number = WireType.VAR_STRING): BoundParam => ({ type, value: lenencBytes(text(v)) }),
  null: (): BoundParam => ({ type: WireType.NULL, value: null }),
  datetime(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, micro = 0): BoundParam {
    const b = Buffer.alloc(12);
    b[0] = 11;
    b.writeUInt16LE(y, 1);
    b.set([mo, d, h, mi, s], 3);
    b.writeUInt32LE(micro, 8);
    return { type: WireType.DATETIME, value: b };
  },
  time(negative: boolean, days: number, h: number, m: number, s: number, micro = 0): BoundParam {
    const b = Buffer.alloc(13);
    b[0] = 12;
    b[1] = negative ? 1 : 0;
    b.writeUInt32LE(days >>> 0, 2);
    b.set([h, m, s], 6);
    b.writeUInt32LE(micro >>> 0, 9);
    return { type: WireType.TIME, value: b };
  },
};
