/** How information_schema.COLUMNS describes a column type (DATA_TYPE, lengths, precisions), as MySQL 8.0. */
import { formatColumnType, isBinaryType, isStringType, lobMaxBytes, type ColumnType, type Value } from '../../types/index.js';
import { CHARSETS, charsetOfCollation } from './charset.js';

export interface TypeFacts {
  readonly dataType: string;
  readonly charMaxLength: bigint | null;
  readonly charOctetLength: bigint | null;
  readonly numericPrecision: bigint | null;
  readonly numericScale: bigint | null;
  readonly datetimePrecision: bigint | null;
  readonly charset: string | null;
  readonly collation: string | null;
  readonly columnType: string;
}

const INT_PRECISION: Readonly<Record<string, readonly [signed: number, unsigned: number]>> = {
  tinyint: [3, 3], smallint: [5, 5], mediumint: [7, 8], int: [10, 10], bigint: [19, 20],
};

function maxLenOf(charset: string): number {
  return CHARSETS.find((c) => c.name === charset)?.maxLen ?? 4;
}

/** DATA_TYPE: the type name without its length, e.g. `varchar`, `mediumtext`, `longblob`. */
export function dataTypeName(t: ColumnType): string {
  if (t.kind === 'text' || t.kind === 'blob') return (t.lob === 'normal' ? '' : t.lob) + t.kind;
  return t.kind;
}

export function typeFacts(t: ColumnType): TypeFacts {
  const base = {
    dataType: dataTypeName(t), columnType: formatColumnType(t),
    charMaxLength: null, charOctetLength: null, numericPrecision: null, numericScale: null,
    datetimePrecision: null, charset: null, collation: null,
  };
  if (isStringType(t)) {
    const charset = charsetOfCollation(t.collation);
    const lob = t.kind === 'text';
    const chars = BigInt(lob ? lobMaxBytes(t.lob) : t.length);
    const octets = lob ? chars : chars * BigInt(maxLenOf(charset));
    return { ...base, charMaxLength: chars, charOctetLength: octets, charset, collation: t.collation };
  }
  if (isBinaryType(t)) {
    const bytes = BigInt(t.kind === 'blob' ? lobMaxBytes(t.lob) : t.length);
    return { ...base, charMaxLength: bytes, charOctetLength: bytes };
  }
  const ints = INT_PRECISION[t.kind];
  if (ints !== undefined) return { ...base, numericPrecision: BigInt(t.unsigned ? ints[1] : ints[0]), numericScale: 0n };
  switch (t.kind) {
    case 'decimal':
      return { ...base, numericPrecision: BigInt(t.length), numericScale: BigInt(t.scale) };
    case 'float':
      return { ...base, numericPrecision: 12n };
    case 'double':
      return { ...base, numericPrecision: 22n };
    case 'datetime':
    case 'timestamp':
    case 'time':
      return { ...base, datetimePrecision: BigInt(t.scale) };
    default:
      return base;
  }
}

/** The COLUMNS values from DATA_TYPE to COLLATION_NAME, in column order. */
export function typeFactValues(f: TypeFacts): Value[] {
  return [
    f.dataType, f.charMaxLength, f.charOctetLength, f.numericPrecision, f.numericScale, f.datetimePrecision,
    f.charset, f.collation,
  ];
}
