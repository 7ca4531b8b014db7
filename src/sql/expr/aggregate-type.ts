/** Result types of aggregates (MySQL 8.0): SUM(int) DECIMAL(M+22,0), AVG scale +4, COUNT BIGINT(21). */
import type { AggName } from '../parse/ast.js';
import { isIntegerType, makeType, type ColumnType } from '../../types/index.js';
import { bigintType, decimalType, doubleType, integerDigits, textType, varcharType } from './result-types.js';

/** DECIMAL_LONGLONG_DIGITS: the precision a SUM adds to its argument's. */
const SUM_EXTRA_DIGITS = 22;
const DIV_PRECISION_INCREMENT = 4;

export function aggregateType(name: AggName, argType: ColumnType): ColumnType {
  switch (name) {
    case 'COUNT':
      return bigintType(21);
    case 'SUM':
      if (isIntegerType(argType)) return decimalType(integerDigits(argType) + SUM_EXTRA_DIGITS, 0);
      if (argType.kind === 'decimal') return decimalType(argType.length + SUM_EXTRA_DIGITS, argType.scale);
      return doubleType();
    case 'AVG':
      if (isIntegerType(argType)) return decimalType(integerDigits(argType) + DIV_PRECISION_INCREMENT, DIV_PRECISION_INCREMENT);
      if (argType.kind === 'decimal') return decimalType(argType.length + DIV_PRECISION_INCREMENT, argType.scale + DIV_PRECISION_INCREMENT);
      return doubleType();
    case 'MIN':
    case 'MAX':
      return argType;
    case 'GROUP_CONCAT':
      return argType.kind === 'blob' || argType.kind === 'text' ? textType() : varcharType(1024);
    case 'BIT_AND':
    case 'BIT_OR':
    case 'BIT_XOR':
      return bigintType(21, true);
    case 'JSON_ARRAYAGG':
    case 'JSON_OBJECTAGG':
      return makeType('json');
  }
}
