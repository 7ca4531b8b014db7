/**
 * HandshakeResponse41 (client -> server, seq 1). Decoding gates every optional field on the
 * effective capabilities (client & server) AND on the bytes remaining, so clients without
 * PLUGIN_AUTH / CONNECT_ATTRS / LENENC data (mysqljs, mysql_async) parse correctly.
 * The encoder exists for tests and mirrors what clients send.
 * Spec: /work/shared/reference/mysql-protocol.md §1.3.
 */
import { ByteReader } from '../byte-reader.js';
import type { ByteWriter } from '../byte-writer.js';
import { Cap } from '../constants.js';
import { MalformedPacket } from '../protocol-errors.js';

export interface HandshakeResponse {
  /** Capabilities as the client sent them. */
  readonly capabilities: number;
  readonly maxPacket: number;
  readonly charset: number;
  readonly user: string;
  readonly authResponse: Buffer;
  /** Empty when none was given. */
  readonly database: string;
  /** Empty when the client did not name one. */
  readonly authPlugin: string;
  readonly attributes: ReadonlyMap<string, string>;
}

/** Throws MalformedPacket when the payload is not a usable HandshakeResponse41 (incl. an SSLRequest). */
export function decodeHandshakeResponse(payload: Buffer, serverCaps: number): HandshakeResponse {
  const r = new ByteReader(payload);
  const capabilities = r.u32();
  if (!(capabilities & Cap.PROTOCOL_41)) throw new MalformedPacket('client does not speak protocol 4.1');
  const eff = capabilities & serverCaps;
  const maxPacket = r.u32();
  const charset = r.u8();
  r.advance(23);
  if (r.remaining() === 0) throw new MalformedPacket('SSLRequest or truncated handshake response');
  const user = r.nulStringOrRest();
  const authResponse = readAuthResponse(r, eff);
  const database = eff & Cap.CONNECT_WITH_DB && r.remaining() > 0 ? r.nulStringOrRest() : '';
  const authPlugin = eff & Cap.PLUGIN_AUTH && r.remaining() > 0 ? r.nulStringOrRest() : '';
  const attributes = eff & Cap.CONNECT_ATTRS && r.remaining() > 0 ? readAttributes(r) : new Map<string, string>();
  return { capabilities, maxPacket, charset, user, authResponse, database, authPlugin, attributes };
}

function readAuthResponse(r: ByteReader, eff: number): Buffer {
  if (r.remaining() === 0) return Buffer.alloc(0);
  if (eff & Cap.PLUGIN_AUTH_LENENC_CLIENT_DATA) return r.lenencBytes();
  if (eff & Cap.SECURE_CONNECTION) return r.bytes(r.u8());
  return r.nulBytes();
}

/** Connect attributes are informational: a malformed block is dropped, not fatal. */
function readAttributes(r: ByteReader): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const block = new ByteReader(r.lenencBytes());
    while (block.remaining() > 0) out.set(block.lenencString(), block.lenencString());
  } catch (err) {
    if (!(err instanceof MalformedPacket)) throw err;
  }
  return out;
}

export function encodeHandshakeResponse(w: ByteWriter, h: HandshakeResponse): void {
  const caps = h.capabilities;
  w.u32(caps);
  w.u32(h.maxPacket);
  w.u8(h.charset);
  w.zeros(23);
  w.nulString(h.user);
  if (caps & Cap.PLUGIN_AUTH_LENENC_CLIENT_DATA) w.lenencBytes(h.authResponse);
  else if (caps & Cap.SECURE_CONNECTION) {
    w.u8(h.authResponse.length);
    w.bytes(h.authResponse);
  } else {
    w.bytes(h.authResponse);
    w.u8(0);
  }
  if (caps & Cap.CONNECT_WITH_DB) w.nulString(h.database);
  if (caps & Cap.PLUGIN_AUTH) w.nulString(h.authPlugin);
  if (caps & Cap.CONNECT_ATTRS) {
    let len = 0;
    const parts: Buffer[] = [];
    for (const [k, v] of h.attributes) {
      for (const s of [k, v]) {
        const b = Buffer.from(s, 'utf8');
        parts.push(Buffer.from([b.length]), b);
        len += 1 + b.length;
      }
    }
    w.lenencInt(len);
    for (const p of parts) w.bytes(p);
  }
}
