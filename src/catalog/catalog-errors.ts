/** SqlErrors the catalog raises that need a little assembly. */
import { SqlError } from '../errors/index.js';

/** ER_NO_SUCH_TABLE (1146, 42S02) `Table 'db.t' doesn't exist`. */
export function noSuchTable(db: string, table: string): SqlError {
  return SqlError.of('ER_NO_SUCH_TABLE', `${db}.${table}`);
}

export function unknownDatabase(db: string): SqlError {
  return SqlError.of('ER_BAD_DB_ERROR', db);
}
