/**
 * Initial handshake packet (HandshakeV10, server -> client, seq 0) with symmetric decode.
 * Spec: /work/shared/reference/mysql-protocol.md §1.2.
 */
import type { ByteWriter } from '../byte-writer.js';
import { ByteReader } from '../byte-reader.js';
import { Cap } from '../constants.js';

export interface HandshakeV10 {
  readonly serverVersion: string;
  readonly connectionId: number;
  /** 20 bytes, no NUL. */
  readonly scramble: Buffer;
  readonly capabilities: number;
  readonly charset: number;
  readonly status: number;
  readonly authPlugin: string;
}

export function encodeHandshakeV10(w: ByteWriter, h: HandshakeV10): void {
  w.u8(0x0a);
  w.nulString(h.serverVersion);
  w.u32(h.connectionId);
  w.bytes(h.scramble.subarray(0, 8));
  w.u8(0);
  w.u16(h.capabilities & 0xffff);
  w.u8(h.charset);
  w.u16(h.status);
  w.u16(h.capabilities >>> 16);
  w.u8(h.scramble.length + 1);
  w.zeros(10);
  w.bytes(h.scramble.subarray(8));
  w.u8(0);
  w.nulString(h.authPlugin);
}

export function decodeHandshakeV10(payload: Buffer): HandshakeV10 {
  const r = new ByteReader(payload);
  if (r.u8() !== 0x0a) throw new Error('not a HandshakeV10 packet');
  const serverVersion = r.nulString();
  const connectionId = r.u32();
  const part1 = r.bytes(8);
  r.advance(1);
  const capLow = r.u16();
  const charset = r.u8();
  const status = r.u16();
  const capabilities = (capLow | (r.u16() << 16)) >>> 0;
  const dataLen = r.u8();
  r.advance(10);
  const part2 = r.bytes(Math.max(13, dataLen - 8));
  const authPlugin = capabilities & Cap.PLUGIN_AUTH ? r.nulStringOrRest() : '';
  const scramble = Buffer.concat([part1, part2]).subarray(0, 20);
  return { serverVersion, connectionId, scramble, capabilities, charset, status, authPlugin };
}
