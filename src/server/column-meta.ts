/**
 * Maps a ResultColumn (SQL type) to its ColumnDefinition41 fields: wire type, charset,
 * column_length, flags and decimals, following the MySQL 8 table.
 * Spec: /work/shared/reference/mysql-protocol.md §3.5 (type table and flags).
 */
import type { ResultColumn } from '../sql/session/types.js';
import { lobMaxBytes, type ColumnType } from '../types/index.js';
import { assertNever } from '../util/index.js';
import { BINARY_COLLATION, ColumnFlag, UTF8MB4_BIN, WireType } from './constants.js';
import type { ColumnDefinition } from './packets/column-definition.js';

const U32_MAX = 0xffffffff;
/** Text collations (utf8mb3/utf8mb4) a client may ask for; anything else falls back to utf8mb4_bin. */
const TEXT_COLLATIONS = new Set([33, 45, 46, 83, 255, ...range(192, 247)]);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The charset id sent for text columns: the connection collation when it is a UTF-8 one, never 63. */
export function textCharset(connectionCollation: number): number {
  return TEXT_COLLATIONS.has(connectionCollation) ? connectionCollation : UTF8MB4_BIN;
}

interface TypeMeta {
  readonly type: number;
  readonly text: boolean;
  readonly length: number;
  readonly flags: number;
  readonly decimals: number;
}

const INT_META = {
  tinyint: [WireType.TINY, 4, 3],
  smallint: [WireType.SHORT, 6, 5],
  mediumint: [WireType.INT24, 9, 8],
  int: [WireType.LONG, 11, 10],
  bigint: [WireType.LONGLONG, 20, 20],
} as const;

function meta(type: number, length: number, flags = 0, decimals = 0, text = false): TypeMeta {
  return { type, text, length: Math.min(length, U32_MAX), flags, decimals };
}

function fspLength(base: number, fsp: number): number {
  return base + (fsp > 0 ? fsp + 1 : 0);
}

export function typeMeta(t: ColumnType): TypeMeta {
  const unsigned = t.unsigned ? ColumnFlag.UNSIGNED : 0;
  switch (t.kind) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint': {
      const [code, signedLen, unsignedLen] = INT_META[t.kind];
      return meta(code, t.length > 0 ? t.length : t.unsigned ? unsignedLen : signedLen, unsigned);
    }
    case 'year':
      return meta(WireType.YEAR, 4, ColumnFlag.UNSIGNED | ColumnFlag.ZEROFILL);
    case 'float':
      return meta(WireType.FLOAT, 12, unsigned, 31);
    case 'double':
      return meta(WireType.DOUBLE, 22, unsigned, 31);
    case 'decimal':
      return meta(WireType.NEWDECIMAL, t.length + (t.scale > 0 ? 1 : 0) + (t.unsigned ? 0 : 1), unsigned, t.scale);
    case 'char':
      return meta(WireType.STRING, t.length * 4, 0, 0, true);
    case 'varchar':
      return meta(WireType.VAR_STRING, t.length * 4, 0, 0, true);
    case 'text':
      return meta(WireType.BLOB, lobMaxBytes(t.lob) * 4, ColumnFlag.BLOB, 0, true);
    case 'binary':
      return meta(WireType.STRING, t.length, ColumnFlag.BINARY);
    case 'varbinary':
      return meta(WireType.VAR_STRING, t.length, ColumnFlag.BINARY);
    case 'blob':
      return meta(WireType.BLOB, lobMaxBytes(t.lob), ColumnFlag.BLOB | ColumnFlag.BINARY);
    case 'date':
      return meta(WireType.DATE, 10, ColumnFlag.BINARY);
    case 'datetime':
      return meta(WireType.DATETIME, fspLength(19, t.scale), ColumnFlag.BINARY, t.scale);
    case 'timestamp':
      return meta(WireType.TIMESTAMP, fspLength(19, t.scale), ColumnFlag.BINARY | ColumnFlag.TIMESTAMP, t.scale);
    case 'time':
      return meta(WireType.TIME, fspLength(10, t.scale), ColumnFlag.BINARY, t.scale);
    case 'json':
      return meta(WireType.JSON, U32_MAX, ColumnFlag.BLOB | ColumnFlag.BINARY);
    case 'enum':
      // MySQL sends ENUM / SET as STRING with the ENUM / SET flag; length: the longest value.
      return meta(WireType.STRING, t.length * 4, ColumnFlag.ENUM, 0, true);
    case 'set':
      return meta(WireType.STRING, t.length * 4, ColumnFlag.SET, 0, true);
    case 'bit':
      return meta(WireType.BIT, t.length, ColumnFlag.UNSIGNED);
    case 'null':
      return meta(WireType.NULL, 0, ColumnFlag.BINARY);
    default:
      return assertNever(t.kind, 'type kind');
  }
}

export function columnDefinition(c: ResultColumn, connectionCollation: number): ColumnDefinition {
  const m = typeMeta(c.type);
  let flags = m.flags;
  if (c.notNull) flags |= ColumnFlag.NOT_NULL;
  if (c.primaryKey) flags |= ColumnFlag.PRI_KEY;
  if (c.uniqueKey) flags |= ColumnFlag.UNIQUE_KEY;
  if (c.multipleKey) flags |= ColumnFlag.MULTIPLE_KEY;
  if (c.autoIncrement) flags |= ColumnFlag.AUTO_INCREMENT;
  return {
    schema: c.schema,
    table: c.table,
    orgTable: c.orgTable,
    name: c.name,
    orgName: c.orgName,
    charset: m.text ? textCharset(connectionCollation) : BINARY_COLLATION,
    length: m.length,
    type: m.type,
    flags,
    decimals: m.decimals,
  };
}
