/**
 * AuthSwitchRequest (0xFE, plugin NUL, plugin data) and AuthMoreData (0x01, data).
 * The client's AuthSwitchResponse is a raw token (the whole payload).
 * Spec: /work/shared/reference/mysql-protocol.md §1.5.
 */
import type { PacketWriter } from '../packet-writer.js';

export function writeAuthSwitchRequest(w: PacketWriter, plugin: string, scramble: Uint8Array): void {
  w.begin();
  w.u8(0xfe);
  w.nulString(plugin);
  w.bytes(scramble);
  w.u8(0);
  w.end();
}

/** caching_sha2_password fast-auth success is AuthMoreData `01 03`. */
export function writeAuthMoreData(w: PacketWriter, data: Uint8Array): void {
  w.begin();
  w.u8(0x01);
  w.bytes(data);
  w.end();
}
