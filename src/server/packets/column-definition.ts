/**
 * ColumnDefinition41, with symmetric decode (tests). COM_FIELD_LIST appends a lenenc default
 * value (0xFB for none).
 * Spec: /work/shared/reference/mysql-protocol.md §3.5.
 */
import { ByteReader } from '../byte-reader.js';
import type { PacketWriter } from '../packet-writer.js';

export interface ColumnDefinition {
  readonly schema: string;
  readonly table: string;
  readonly orgTable: string;
  readonly name: string;
  readonly orgName: string;
  readonly charset: number;
  readonly length: number;
  readonly type: number;
  readonly flags: number;
  readonly decimals: number;
}

/** Writes one column-definition packet; `fieldDefault` (COM_FIELD_LIST only) is appended when given. */
export function writeColumnDefinition(w: PacketWriter, c: ColumnDefinition, fieldDefault?: string | null): void {
  w.begin();
  w.lenencString('def');
  w.lenencString(c.schema);
  w.lenencString(c.table);
  w.lenencString(c.orgTable);
  w.lenencString(c.name);
  w.lenencString(c.orgName);
  w.u8(0x0c);
  w.u16(c.charset);
  w.u32(c.length);
  w.u8(c.type);
  w.u16(c.flags);
  w.u8(c.decimals);
  w.u16(0);
  if (fieldDefault !== undefined) {
    if (fieldDefault === null) w.u8(0xfb);
    else w.lenencString(fieldDefault);
  }
  w.end();
}

export function decodeColumnDefinition(payload: Buffer): ColumnDefinition {
  const r = new ByteReader(payload);
  r.lenencString(); // catalog
  const schema = r.lenencString();
  const table = r.lenencString();
  const orgTable = r.lenencString();
  const name = r.lenencString();
  const orgName = r.lenencString();
  r.lenencInt();
  const charset = r.u16();
  const length = r.u32();
  const type = r.u8();
  const flags = r.u16();
  const decimals = r.u8();
  return { schema, table, orgTable, name, orgName, charset, length, type, flags, decimals };
}
