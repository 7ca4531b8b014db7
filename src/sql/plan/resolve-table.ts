/** Table name resolution (1046 / 1146). */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { TableName } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { INFORMATION_SCHEMA, isInformationSchema, virtualTable } from './info-schema.js';

export function resolveTable(schema: Schema, currentDb: string | null, name: TableName): TableInfo {
  const db = name.db ?? currentDb;
  if (db === null || db === undefined) throw SqlError.of('ER_NO_DB_ERROR');
  if (isInformationSchema(db)) return virtualTable(name.name) ?? throwError(noSuchTable(INFORMATION_SCHEMA, name.name));
  const table = schema.table(db, name.name);
  if (table === undefined) throw noSuchTable(db, name.name);
  return table;
}

/** ER_NO_SUCH_TABLE (1146, 42S02) `Table 'db.t' doesn't exist`. */
export function noSuchTable(db: string, table: string): SqlError {
  return SqlError.of('ER_NO_SUCH_TABLE', `${db}.${table}`);
}

/** ER_BAD_FIELD_ERROR for a column reference in `clause`. */
export function unknownColumn(ref: { readonly table?: string; readonly name: string }, clause: string): SqlError {
  const text = ref.table !== undefined ? `${ref.table}.${ref.name}` : ref.name;
  return SqlError.of('ER_BAD_FIELD_ERROR', text, clause);
}

function throwError(err: SqlError): never {
  throw err;
}
