/**
 * COM_STMT_SEND_LONG_DATA: 0x18, stmt_id u32, param_id u16, data (rest). No response.
 * Spec: /work/shared/reference/mysql-protocol.md §2 (0x18), §2.2 (long data).
 */
import { ByteReader } from '../byte-reader.js';

export interface LongDataRequest {
  readonly stmtId: number;
  readonly paramId: number;
  readonly data: Buffer;
}

/** `payload` includes the command byte. Throws MalformedPacket. */
export function decodeLongData(payload: Buffer): LongDataRequest {
  const r = new ByteReader(payload, 1);
  const stmtId = r.u32();
  const paramId = r.u16();
  return { stmtId, paramId, data: r.rest() };
}
