/**
 * How the codec stores a column type: which JS representation it expects and which encoding it
 * uses. One switch shared by the key and row codecs.
 */
import type { ColumnType } from '../types/index.js';
import { assertNever } from '../util/index.js';

export type ValueClass = 'int' | 'uint' | 'float' | 'decimal' | 'string' | 'bytes' | 'date' | 'datetime' | 'duration' | 'null';

export function valueClass(t: ColumnType): ValueClass {
  switch (t.kind) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint':
    case 'year':
      return t.unsigned ? 'uint' : 'int';
    case 'float':
    case 'double':
      return 'float';
    case 'decimal':
      return 'decimal';
    case 'char':
    case 'varchar':
    case 'text':
    case 'json':
    case 'enum': // kept as the member text (see sql/expr/enum-set.ts)
    case 'set':
      return 'string';
    case 'binary':
    case 'varbinary':
    case 'blob':
    case 'bit': // big-endian bytes of fixed width: byte order is numeric order
      return 'bytes';
    case 'date':
      return 'date';
    case 'datetime':
    case 'timestamp':
      return 'datetime';
    case 'time':
      return 'duration';
    case 'null':
      return 'null';
    default:
      return assertNever(t.kind, 'type kind');
  }
}

const DEFAULT_DECIMAL_PRECISION = 10;

/** Declared (M, D) of a DECIMAL column; MySQL's DECIMAL means DECIMAL(10,0). */
export function decimalPrecision(t: ColumnType): { precision: number; frac: number } {
  const frac = t.scale > 0 ? t.scale : 0;
  const precision = t.length > 0 ? t.length : Math.max(DEFAULT_DECIMAL_PRECISION, frac);
  return { precision, frac };
}
