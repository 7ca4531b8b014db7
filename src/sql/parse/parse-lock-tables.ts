/** `LOCK TABLE[S] t [[AS] a] READ [LOCAL] | [LOW_PRIORITY] WRITE, ...` -> the locked tables (a `noop` statement carries them). */
import type { LockedTable } from './ast.js';
import type { Cursor } from './cursor.js';

export function parseLockTables(c: Cursor): LockedTable[] {
  c.expectWord('LOCK');
  c.expectWord('TABLES', 'TABLE');
  const out: LockedTable[] = [];
  do {
    const t = c.tableName();
    const table = t.db === undefined ? { name: t.name } : { db: t.db, name: t.name };
    if (c.acceptWord('AS') !== undefined || (c.isIdent() && !c.isWord('READ', 'WRITE', 'LOW_PRIORITY'))) c.name();
    c.acceptWord('LOW_PRIORITY');
    const mode = c.expectWord('READ', 'WRITE');
    if (mode === 'READ') c.acceptWord('LOCAL');
    out.push({ table, write: mode === 'WRITE' });
  } while (c.acceptOp(','));
  c.expectEnd();
  return out;
}
