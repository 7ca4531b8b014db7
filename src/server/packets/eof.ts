/**
 * Classic EOF packet: 0xFE, warnings u16, status u16 (DEPRECATE_EOF is never negotiated).
 * Spec: /work/shared/reference/mysql-protocol.md §3.1.
 */
import type { PacketWriter } from '../packet-writer.js';

export function writeEof(w: PacketWriter, warnings: number, status: number): void {
  w.begin();
  w.u8(0xfe);
  w.u16(warnings);
  w.u16(status);
  w.end();
}
