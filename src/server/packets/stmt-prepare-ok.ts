/**
 * COM_STMT_PREPARE_OK: 0x00, stmt_id u32, num_columns u16, num_params u16, 0x00, warnings u16.
 * Spec: /work/shared/reference/mysql-protocol.md §2.1.
 */
import type { PacketWriter } from '../packet-writer.js';

export function writePrepareOk(w: PacketWriter, stmtId: number, columns: number, params: number, warnings: number): void {
  w.begin();
  w.u8(0x00);
  w.u32(stmtId);
  w.u16(columns);
  w.u16(params);
  w.u8(0);
  w.u16(warnings);
  w.end();
}
