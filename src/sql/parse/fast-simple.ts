/**
 * Fast paths for tiny statements that never reach node-sql-parser: BEGIN, START TRANSACTION,
 * COMMIT, ROLLBACK, USE, SAVEPOINT, ROLLBACK TO, RELEASE SAVEPOINT.
 */
import type { Statement } from './ast.js';
import type { Cursor } from './cursor.js';

/** Parses a transaction-control or USE statement, or returns undefined if `c` holds something else. */
export function parseSimple(c: Cursor): Statement | undefined {
  const first = c.peek();
  if (first === undefined || first.type !== 'word') return undefined;
  switch (first.upper) {
    case 'BEGIN':
      c.next();
      c.acceptWord('WORK');
      return end(c, { kind: 'begin', readOnly: false });
    case 'START':
      return parseStart(c);
    case 'COMMIT':
      c.next();
      c.acceptWord('WORK');
      return end(c, { kind: 'commit' });
    case 'ROLLBACK':
      return parseRollback(c);
    case 'USE':
      c.next();
      return end(c, { kind: 'use', db: c.ident() });
    case 'SAVEPOINT':
      c.next();
      return end(c, { kind: 'savepoint', name: c.ident() });
    case 'RELEASE':
      c.next();
      c.expectWord('SAVEPOINT');
      return end(c, { kind: 'releaseSavepoint', name: c.ident() });
    default:
      return undefined;
  }
}

function end(c: Cursor, stmt: Statement): Statement {
  c.expectEnd();
  return stmt;
}

function parseStart(c: Cursor): Statement {
  c.next();
  c.expectWord('TRANSACTION');
  let readOnly = false;
  do {
    if (c.acceptWords('READ', 'ONLY')) readOnly = true;
    else if (c.acceptWords('READ', 'WRITE')) readOnly = false;
    else if (c.acceptWords('WITH', 'CONSISTENT', 'SNAPSHOT')) continue;
    else if (!c.atEnd()) throw c.error();
  } while (c.acceptOp(','));
  return end(c, { kind: 'begin', readOnly });
}

function parseRollback(c: Cursor): Statement {
  c.next();
  c.acceptWord('WORK');
  if (c.atEnd()) return { kind: 'rollback' };
  c.expectWord('TO');
  c.acceptWord('SAVEPOINT');
  return end(c, { kind: 'rollbackToSavepoint', name: c.ident() });
}
