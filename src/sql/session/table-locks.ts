/**
 * LOCK TABLES / UNLOCK TABLES, the part MySQL's semantics that can be honoured cheaply: while a
 * session holds table locks, a data statement touching a table it did not lock fails with 1100,
 * and writing a table locked READ fails with 1099. The locks do NOT block other sessions
 * (concurrency is optimistic: conflicting writers still fail at commit with 1213), and LOCK
 * TABLES does not commit the open transaction. Aliases given in LOCK TABLES are accepted but
 * statements are checked by table name. information_schema is always readable.
 */
import { SqlError } from '../../errors/index.js';
import type { Statement } from '../parse/index.js';
import type { ContextHost } from './exec-context.js';
import { requirementsOf } from './privilege-requirements.js';

const DATA_KINDS: ReadonlySet<string> = new Set(['select', 'insert', 'update', 'delete']);

/** Locked tables per session: `db\0table` -> write lock? */
const locked = new WeakMap<ContextHost, Map<string, boolean>>();

function keyOf(db: string, table: string): string {
  return `${db}\u0000${table}`;
}

/** Applies LOCK/UNLOCK TABLES, and checks a data statement against the session's table locks. */
export function checkTableLocks(host: ContextHost, stmt: Statement): void {
  const db = host.currentDatabase();
  if (stmt.kind === 'noop') {
    if (stmt.lockTables !== undefined) {
      const m = new Map<string, boolean>();
      for (const t of stmt.lockTables) {
        const tdb = t.table.db ?? db;
        if (tdb === null) throw SqlError.of('ER_NO_DB_ERROR');
        const key = keyOf(tdb, t.table.name);
        m.set(key, (m.get(key) ?? false) || t.write);
      }
      locked.set(host, m);
    } else if (stmt.what === 'UNLOCK TABLES' || stmt.what === 'UNLOCK TABLE') locked.delete(host);
    return;
  }
  const m = locked.get(host);
  if (m === undefined || !DATA_KINDS.has(stmt.kind)) return;
  for (const r of requirementsOf(stmt, db)) {
    if (r.kind !== 'table') continue;
    const write = m.get(keyOf(r.db, r.table));
    if (write === undefined) throw SqlError.of('ER_TABLE_NOT_LOCKED', r.table);
    if (!write && r.priv !== 'SELECT') throw SqlError.of('ER_TABLE_NOT_LOCKED_FOR_WRITE', r.table);
  }
}
