/**
 * Rows of the information_schema tables declared in sql/plan/info-schema.ts, in their column
 * order, computed per statement from the engine's live state; those tables are read-only.
 */
import { SqlError } from '../../errors/index.js';
import type { Statement } from '../parse/index.js';
import { INFORMATION_SCHEMA, isInformationSchema } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { ProcessInfo } from './show-server.js';

export interface InfoSchemaSource {
  /** The connections the requester may see (all of them with PROCESS). */
  processList(): Promise<ProcessInfo[]>;
}

export async function infoSchemaRows(table: string, source: InfoSchemaSource): Promise<Value[][]> {
  switch (table) {
    case 'PROCESSLIST':
      return (await source.processList()).map((p) => [BigInt(p.id), p.user, p.host, p.db, p.command, BigInt(p.time), p.state, p.info]);
    default:
      throw SqlError.of('ER_NO_SUCH_TABLE', `information_schema.${table}`);
  }
}

/** INSERT / UPDATE / DELETE on an information_schema table: 1044, as in MySQL. */
export function rejectInfoSchemaWrite(stmt: Statement, currentDb: string | null, user: string, host: string): void {
  if (stmt.kind !== 'insert' && stmt.kind !== 'update' && stmt.kind !== 'delete') return;
  const db = stmt.table.db ?? currentDb;
  if (db !== null && isInformationSchema(db)) throw SqlError.of('ER_DBACCESS_DENIED_ERROR', user, host, INFORMATION_SCHEMA);
}
