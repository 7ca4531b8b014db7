/** Errors the session raises whose registry entries may still be missing. */
import { ERRORS, SqlError, type ErrorName } from '../../errors/index.js';

/** 1146 `Table 'db.t' doesn't exist` (falls back to 1105 with the same text if not registered). */
export function noSuchTable(db: string, table: string): SqlError {
  const name: string = 'ER_NO_SUCH_TABLE';
  if (name in ERRORS) return SqlError.of(name as ErrorName, `${db}.${table}`);
  return new SqlError('ER_UNKNOWN_ERROR', `Table '${db}.${table}' doesn't exist`);
}
