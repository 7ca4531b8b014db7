/**
 * Result types of window functions (MySQL 8.0): ROW_NUMBER / RANK / DENSE_RANK / NTILE are
 * BIGINT NOT NULL, PERCENT_RANK / CUME_DIST DOUBLE NOT NULL, LAG / LEAD the merge of the
 * argument and the default, FIRST_VALUE / LAST_VALUE / NTH_VALUE the argument's type, and the
 * aggregates as under GROUP BY.
 */
import type { WindowFuncName } from '../parse/ast.js';
import { makeType } from '../../types/index.js';
import { aggregateType } from './aggregate-type.js';
import { mergeTypes } from './merge-types.js';
import { bigintType, doubleType } from './result-types.js';
import type { TypeInfo } from './types.js';

/** `argTypes` are the types of the call's arguments, in order (undefined: a `?` of unknown type). */
export function windowFuncType(name: WindowFuncName, argTypes: ReadonlyArray<TypeInfo | undefined>): TypeInfo {
  const first = argTypes[0]?.type ?? makeType('bigint');
  switch (name) {
    case 'ROW_NUMBER':
    case 'RANK':
    case 'DENSE_RANK':
    case 'NTILE':
      return { type: bigintType(21), notNull: true };
    case 'PERCENT_RANK':
    case 'CUME_DIST':
      return { type: doubleType(), notNull: true };
    case 'LAG':
    case 'LEAD': {
      const dflt = argTypes[2];
      return { type: dflt === undefined ? first : mergeTypes([first, dflt.type]), notNull: false };
    }
    case 'FIRST_VALUE':
    case 'LAST_VALUE':
    case 'NTH_VALUE':
      return { type: first, notNull: false };
    case 'COUNT':
      return { type: aggregateType('COUNT', first), notNull: true };
    default:
      return { type: aggregateType(name, first), notNull: false };
  }
}
