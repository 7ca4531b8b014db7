/**
 * ADMIN statements (TiDB's family). ADMIN CHECK TABLE t [, t2 ...] runs as a read-only data
 * statement (in the open transaction, or its own autocommit snapshot): every name is resolved
 * first (1146 for an unknown table), then each table is checked in turn; OK with no result set
 * when all agree (as TiDB), else the first table's ER_DATA_INCONSISTENT (8134).
 */
import type { Catalog, TableInfo } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import { checkTable, type CheckPause } from '../exec/check-table.js';
import type { AdminStatement } from '../parse/index.js';
import type { Txn } from '../../txn/index.js';
import { assertNever } from '../../util/index.js';
import { databaseOf, okResult } from './ddl.js';
import type { ExecResult } from './types.js';

/** What ADMIN needs from its session. */
export interface AdminHost {
  readonly catalog: Catalog;
  currentDatabase(): string | null;
  /** Runs `body` as a data statement (TransactionControl.run). */
  run<T>(body: (txn: Txn) => Promise<T>): Promise<T>;
  /** The statement's KILL QUERY token, checked between pages. */
  readonly cancel?: CheckPause;
}

export async function runAdmin(stmt: AdminStatement, host: AdminHost): Promise<ExecResult> {
  switch (stmt.op) {
    case 'checkTable':
      await host.run(async (txn) => {
        const schema = await host.catalog.schemaFor(txn);
        const tables: TableInfo[] = stmt.tables.map((t) => {
          const db = databaseOf(t, host);
          const info = schema.table(db, t.name);
          if (info === undefined) throw SqlError.of('ER_NO_SUCH_TABLE', `${db}.${t.name}`);
          return info;
        });
        for (const table of tables) await checkTable(txn, table, host.cancel);
      });
      return okResult();
    default:
      return assertNever(stmt.op, 'ADMIN statement');
  }
}
