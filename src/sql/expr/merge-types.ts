/** The common result type of several branches (IF, CASE, COALESCE, GREATEST, UNION-like merges). */
import { isBinaryType, isIntegerType, isStringType, isTemporalType, type ColumnType } from '../../types/index.js';
import { bigintType, decimalType, displayLength, doubleType, integerDigits, nullType, varbinaryType, varcharType } from './result-types.js';

function isExact(t: ColumnType): boolean {
  return isIntegerType(t) || t.kind === 'decimal';
}

function isNumeric(t: ColumnType): boolean {
  return isExact(t) || t.kind === 'double' || t.kind === 'float';
}

export function mergeTypes(types: readonly ColumnType[]): ColumnType {
  const ts = types.filter((t) => t.kind !== 'null');
  const first = ts[0];
  if (first === undefined) return nullType();
  if (ts.every((t) => t.kind === first.kind && t.kind !== 'decimal' && !isStringType(t) && !isBinaryType(t))) {
    return ts.every((t) => t.scale === first.scale && t.unsigned === first.unsigned) ? first : { ...first, scale: Math.max(...ts.map((t) => t.scale)) };
  }
  if (ts.every(isIntegerType)) {
    return bigintType(Math.max(...ts.map(displayLength)), ts.every((t) => t.unsigned));
  }
  if (ts.every(isExact)) {
    const scale = Math.max(...ts.map((t) => (t.kind === 'decimal' ? t.scale : 0)));
    const intDigits = Math.max(...ts.map((t) => (t.kind === 'decimal' ? t.length - t.scale : integerDigits(t))));
    return decimalType(intDigits + scale, scale);
  }
  if (ts.every(isNumeric)) return doubleType();
  if (ts.every(isTemporalType)) {
    if (ts.every((t) => t.kind === 'date' || t.kind === 'datetime' || t.kind === 'timestamp')) {
      return { ...first, kind: 'datetime', scale: Math.max(...ts.map((t) => t.scale)) };
    }
  }
  const length = Math.max(...ts.map(displayLength));
  return ts.some(isBinaryType) ? varbinaryType(length) : varcharType(length);
}
