/**
 * Row value format v2 (TiDB `rowcodec`), the value of every record key:
 *
 *   version        1 byte   = 0x80 (128)
 *   flag           1 byte   bit 0 "big": max column id > 255 or values area > 65535 bytes
 *   notNullCount   u16 LE
 *   nullCount      u16 LE
 *   notNullIds     notNullCount x (u8, or u32 LE if big), ascending
 *   nullIds        nullCount x (u8, or u32 LE if big), ascending
 *   endOffsets     notNullCount x (u16 LE, or u32 LE if big): end of each value, relative to
 *                  the start of the values area
 *   values         concatenated, in notNullIds order:
 *     signed ints    fewest of 1/2/4/8 bytes LE two's complement (width = value length)
 *     unsigned ints  fewest of 1/2/4/8 bytes LE
 *     FLOAT/DOUBLE   float64 LE (8 bytes)
 *     DECIMAL(M,D)   M byte, D byte, MySQL binary decimal (decimal-bin.ts)
 *     strings        raw UTF-8;  binary strings: raw bytes
 *     JSON           MySQL's normalized JSON text as UTF-8 (sql/expr/json/json-serialize.ts)
 *     ENUM / SET     the member text as UTF-8 (ENUM 'b', SET 'x,z'), not MySQL's index /
 *                    bitmask: ShaleDB's choice (TiDB stores the index); numeric contexts
 *                    compute the index / bitmask (sql/expr/enum-set.ts)
 *     BIT(n)         ceil(n/8) big-endian bytes
 *     DATE/DATETIME/TIMESTAMP  DateTime.toPacked() as uint64 LE
 *     TIME           int64 microseconds LE
 * A column id in neither list is "not stored" (the reader applies the column's default); an
 * explicit NULL is listed in nullIds and has no offset or value. A row of zero columns is the
 * 6-byte header 80 00 00 00 00 00.
 *
 * Worked example: ids [1, 2, 3], values [INT 1, VARCHAR 'ab', NULL]:
 *   80 00 | 02 00 | 01 00 | 01 02 | 03 | 01 00 03 00 | 01 | 61 62
 *
 * frozen: part of the on-disk format.
 */
export const ROW_VERSION = 0x80;
export const ROW_FLAG_BIG = 0x01;
export const ROW_HEADER_LEN = 6;
export const SMALL_MAX_ID = 0xff;
export const SMALL_MAX_OFFSET = 0xffff;
export const MAX_COLUMN_ID = 0xffffffff;
export const MAX_COLUMNS = 0xffff;
