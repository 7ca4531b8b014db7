/**
 * CREATE [OR REPLACE] [ALGORITHM = ...] [DEFINER = ...] [SQL SECURITY ...] VIEW v [(cols)] AS
 * select [WITH [CASCADED | LOCAL] CHECK OPTION], and DROP VIEW [IF EXISTS] v [, w ...].
 */
import type { Statement, TableName } from './ast.js';
import type { Cursor } from './cursor.js';
import { notSupported } from './parse-error.js';

/** True at `CREATE ... VIEW` (the cursor is at CREATE). */
export function isCreateView(c: Cursor): boolean {
  for (let k = 1; k < 12; k++) {
    const t = c.peek(k);
    if (t === undefined) return false;
    if (t.type === 'word' && t.upper === 'VIEW') return true;
    if (t.type === 'word' && (t.upper === 'TABLE' || t.upper === 'INDEX' || t.upper === 'DATABASE' || t.upper === 'SCHEMA')) return false;
  }
  return false;
}

/** `parseSelect(from)` parses the statement made of the tokens from index `from` to the end. */
export function parseCreateView(c: Cursor, parseSelect: (from: number) => Statement): Statement {
  c.expectWord('CREATE');
  const orReplace = c.acceptWords('OR', 'REPLACE');
  skipViewOptions(c);
  c.expectWord('VIEW');
  const view = c.tableName();
  let columns: string[] | undefined;
  if (c.acceptOp('(')) {
    columns = [c.ident()];
    while (c.acceptOp(',')) columns.push(c.ident());
    c.expectOp(')');
  }
  c.expectWord('AS');
  const from = c.pos;
  const n = c.tokens.length;
  if (n - from > 3 && c.tokens[n - 1]?.upper === 'OPTION' && c.tokens[n - 2]?.upper === 'CHECK') {
    throw notSupported('WITH CHECK OPTION');
  }
  const select = parseSelect(from);
  if (select.kind !== 'select') throw c.error();
  c.pos = n;
  return { kind: 'createView', view, orReplace, select, selectText: c.textFrom(from), ...(columns ? { columns } : {}) };
}

function skipViewOptions(c: Cursor): void {
  for (;;) {
    if (c.acceptWord('ALGORITHM')) {
      c.expectOp('=');
      c.expectWord('UNDEFINED', 'MERGE', 'TEMPTABLE');
    } else if (c.acceptWord('DEFINER')) {
      c.expectOp('=');
      while (!c.atEnd() && !c.isWord('SQL', 'VIEW')) c.next();
    } else if (c.acceptWord('SQL')) {
      c.expectWord('SECURITY');
      c.expectWord('DEFINER', 'INVOKER');
    } else return;
  }
}

export function parseDropView(c: Cursor): Statement {
  c.expectWord('DROP');
  c.expectWord('VIEW');
  const ifExists = c.acceptWords('IF', 'EXISTS');
  const views: TableName[] = [c.tableName()];
  while (c.acceptOp(',')) views.push(c.tableName());
  c.acceptWord('RESTRICT', 'CASCADE');
  c.expectEnd();
  return { kind: 'dropView', views, ifExists };
}
