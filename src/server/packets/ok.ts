/**
 * OK packet (header 0x00). Without SESSION_TRACK the info text is the rest of the packet.
 * Spec: /work/shared/reference/mysql-protocol.md §3.2.
 */
import type { PacketWriter } from '../packet-writer.js';

export interface OkFields {
  readonly affectedRows: bigint;
  readonly insertId: bigint;
  readonly status: number;
  readonly warnings: number;
  readonly info: string;
}

export function writeOk(w: PacketWriter, ok: OkFields): void {
  w.begin();
  w.u8(0x00);
  w.lenencInt(ok.affectedRows);
  w.lenencInt(ok.insertId);
  w.u16(ok.status);
  w.u16(ok.warnings);
  if (ok.info !== '') w.string(ok.info);
  w.end();
}

/** OK with nothing to report but the status flags (PING, INIT_DB, auth success, ...). */
export function writeEmptyOk(w: PacketWriter, status: number): void {
  writeOk(w, { affectedRows: 0n, insertId: 0n, status, warnings: 0, info: '' });
}
