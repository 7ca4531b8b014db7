/**
 * OK packet (header 0x00). The info text is written as a length-encoded string, as MySQL and
 * MariaDB servers do (net_store_data) whether or not SESSION_TRACK was negotiated: libmariadb
 * (mysql CLI, sysbench) always reads it that way, and mysql2 (which reads the rest of the packet
 * without SESSION_TRACK) only matches `Changed: N` inside it.
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
  if (ok.info !== '') w.lenencString(ok.info);
  w.end();
}

/** OK with nothing to report but the status flags (PING, INIT_DB, auth success, ...). */
export function writeEmptyOk(w: PacketWriter, status: number): void {
  writeOk(w, { affectedRows: 0n, insertId: 0n, status, warnings: 0, info: '' });
}
