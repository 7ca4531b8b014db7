/** Builders for the result types expressions report (result-set metadata, binary protocol). */
import { DEFAULT_COLLATION, makeType, type ColumnType } from '../../types/index.js';

/** BIGINT with a display length (MySQL: `SELECT 1` is LONGLONG length 1, COUNT(*) length 21). */
export function bigintType(length = 21, unsigned = false): ColumnType {
  return makeType('bigint', { length, unsigned });
}

export function decimalType(precision: number, scale: number, unsigned = false): ColumnType {
  return makeType('decimal', { length: Math.min(65, Math.max(precision, scale, 1)), scale: Math.min(30, scale), unsigned });
}

export function doubleType(): ColumnType {
  return makeType('double');
}

export function varcharType(length: number): ColumnType {
  return makeType('varchar', { length: Math.max(0, length), collation: DEFAULT_COLLATION });
}

export function textType(): ColumnType {
  return makeType('text', { lob: 'long', collation: DEFAULT_COLLATION });
}

export function varbinaryType(length: number): ColumnType {
  return makeType('varbinary', { length: Math.max(0, length) });
}

export function datetimeType(fsp = 0): ColumnType {
  return makeType('datetime', { scale: fsp });
}

export function dateType(): ColumnType {
  return makeType('date');
}

export function timeType(fsp = 0): ColumnType {
  return makeType('time', { scale: fsp });
}

export function nullType(): ColumnType {
  return makeType('null');
}

/** Digits needed for the largest value of an integer kind (DECIMAL precision of an int operand). */
export function integerDigits(t: ColumnType): number {
  const signed = { tinyint: 3, smallint: 5, mediumint: 7, int: 10, bigint: 19, year: 4 } as const;
  const unsigned = { tinyint: 3, smallint: 5, mediumint: 8, int: 10, bigint: 20, year: 4 } as const;
  const table = t.unsigned ? unsigned : signed;
  return table[t.kind as keyof typeof table] ?? 19;
}

/** Display length of a type in characters (MySQL's max_length), used to size derived strings. */
export function displayLength(t: ColumnType): number {
  switch (t.kind) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint':
    case 'year':
      return t.length > 0 && t.kind === 'bigint' ? t.length : integerDigits(t) + (t.unsigned ? 0 : 1);
    case 'decimal':
      return t.length + (t.scale > 0 ? 1 : 0) + 1;
    case 'float':
      return 12;
    case 'double':
      return 22;
    case 'date':
      return 10;
    case 'datetime':
    case 'timestamp':
      return 19 + (t.scale > 0 ? t.scale + 1 : 0);
    case 'time':
      return 10 + (t.scale > 0 ? t.scale + 1 : 0);
    case 'char':
    case 'varchar':
    case 'binary':
    case 'varbinary':
      return Math.max(0, t.length);
    default:
      return 65535;
  }
}
