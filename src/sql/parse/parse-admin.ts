/** `ADMIN CHECK TABLE t [, t2 ...]` (as in TiDB). */
import type { Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { notSupported } from './parse-error.js';

export function parseAdmin(c: Cursor): Statement {
  c.expectWord('ADMIN');
  if (!c.acceptWord('CHECK')) throw notSupported(`ADMIN ${c.peek()?.upper ?? ''}`.trim());
  c.expectWord('TABLE');
  const tables = [c.tableName()];
  while (c.acceptOp(',')) tables.push(c.tableName());
  c.expectEnd();
  return { kind: 'admin', stmt: { op: 'checkTable', tables } };
}
