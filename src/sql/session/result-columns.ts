/** Column metadata for result sets the session builds itself (SHOW ..., DESCRIBE). */
import { makeType } from '../../types/index.js';
import type { ResultColumn } from './types.js';

const NO_KEYS = { primaryKey: false, uniqueKey: false, multipleKey: false, autoIncrement: false } as const;

/** A VARCHAR column, as information_schema-backed SHOW statements report them. */
export function textColumn(name: string, length = 64, notNull = false): ResultColumn {
  return {
    name,
    orgName: name,
    table: '',
    orgTable: '',
    schema: '',
    type: makeType('varchar', { length, collation: 'utf8mb4_0900_ai_ci' }),
    notNull,
    ...NO_KEYS,
  };
}

/** A BIGINT column (counts, ids, positions). */
export function intColumn(name: string, unsigned = false): ResultColumn {
  return {
    name,
    orgName: name,
    table: '',
    orgTable: '',
    schema: '',
    type: makeType('bigint', { unsigned }),
    notNull: false,
    ...NO_KEYS,
  };
}
