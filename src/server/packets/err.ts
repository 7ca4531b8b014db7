/**
 * ERR packet: 0xFF, errno u16, '#', SQLSTATE (5 chars), message. Before the greeting the
 * client's capabilities are unknown, so the pre-4.1 layout (no '#SQLSTATE') is used.
 * Spec: /work/shared/reference/mysql-protocol.md §3.4, §1.2 (errors before the greeting).
 */
import type { PacketWriter } from '../packet-writer.js';

export interface ErrFields {
  readonly errno: number;
  readonly sqlState: string;
  readonly message: string;
}

export function writeErr(w: PacketWriter, e: ErrFields): void {
  w.begin();
  w.u8(0xff);
  w.u16(e.errno);
  w.u8(0x23);
  w.string(e.sqlState.padEnd(5, '0').slice(0, 5));
  w.string(e.message);
  w.end();
}

export function writeErrPre41(w: PacketWriter, e: ErrFields): void {
  w.begin();
  w.u8(0xff);
  w.u16(e.errno);
  w.string(e.message);
  w.end();
}
