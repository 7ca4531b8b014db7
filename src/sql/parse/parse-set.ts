/** SET statements, token-level: NAMES, CHARACTER SET, TRANSACTION, variable assignments. */
import type { Expr, SetAssignment, Statement, VarScope } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseExprTokens } from './lib-statement.js';

const ISOLATION = ['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE'];

export function parseSet(c: Cursor): Statement {
  c.expectWord('SET');
  if (c.acceptWord('NAMES')) return setNames(c);
  if (c.acceptWords('CHARACTER', 'SET') || c.acceptWord('CHARSET')) {
    const charset = charsetName(c);
    c.expectEnd();
    return { kind: 'setNames', charset };
  }
  const save = c.pos;
  const scope = c.acceptWord('GLOBAL', 'SESSION', 'LOCAL');
  if (c.acceptWord('TRANSACTION')) return setTransaction(c, scope === 'GLOBAL' ? 'global' : scope ? 'session' : 'next');
  c.pos = save;
  const assignments: SetAssignment[] = [];
  let sticky: VarScope = 'session';
  do {
    const a = assignment(c, sticky);
    if (a.scope !== 'user') sticky = a.scope;
    assignments.push(a);
  } while (c.acceptOp(','));
  c.expectEnd();
  return { kind: 'set', assignments };
}

function charsetName(c: Cursor): string {
  if (c.acceptWord('DEFAULT')) return 'default';
  return c.name().toLowerCase();
}

function setNames(c: Cursor): Statement {
  const charset = charsetName(c);
  const collation = c.acceptWord('COLLATE') ? c.name().toLowerCase() : undefined;
  c.expectEnd();
  return collation ? { kind: 'setNames', charset, collation } : { kind: 'setNames', charset };
}

function setTransaction(c: Cursor, scope: 'global' | 'session' | 'next'): Statement {
  let isolation: string | undefined;
  let readOnly: boolean | undefined;
  do {
    if (c.acceptWords('ISOLATION', 'LEVEL')) {
      const level = ISOLATION.find((l) => c.acceptWords(...l.split(' ')));
      if (level === undefined) throw c.error();
      isolation = level;
    } else if (c.acceptWords('READ', 'ONLY')) readOnly = true;
    else if (c.acceptWords('READ', 'WRITE')) readOnly = false;
    else throw c.error();
  } while (c.acceptOp(','));
  c.expectEnd();
  return { kind: 'setTransaction', scope, ...(isolation ? { isolation } : {}), ...(readOnly !== undefined ? { readOnly } : {}) };
}

/** `[GLOBAL|SESSION|LOCAL] name = expr`, `@@[global.|session.]name = expr`, `@u = expr`. */
function assignment(c: Cursor, sticky: VarScope): SetAssignment {
  const word = c.acceptWord('GLOBAL', 'SESSION', 'LOCAL', 'PERSIST', 'PERSIST_ONLY');
  let scope: VarScope = word === 'GLOBAL' || word === 'PERSIST' || word === 'PERSIST_ONLY' ? 'global' : word ? 'session' : sticky;
  let name: string;
  const t = c.peek();
  if (t !== undefined && t.type === 'var') {
    c.next();
    const raw = String(t.value);
    if (!t.text.startsWith('@@')) return { scope: 'user', name: raw, value: value(c) };
    const dot = raw.indexOf('.');
    const prefix = dot > 0 ? raw.slice(0, dot).toLowerCase() : '';
    if (prefix === 'global' || prefix === 'session' || prefix === 'local') {
      scope = prefix === 'global' ? 'global' : 'session';
      name = raw.slice(dot + 1);
    } else {
      scope = 'session';
      name = raw;
    }
  } else {
    name = c.ident();
    while (c.acceptOp('.')) name += '.' + c.ident();
  }
  return { scope, name: name.toLowerCase(), value: value(c) };
}

function value(c: Cursor): Expr {
  if (!c.acceptOp('=') && !c.acceptOp(':=')) throw c.error();
  const next = c.peek(1);
  const single = next === undefined || (next.type === 'op' && next.text === ',');
  if (single && c.isWord('DEFAULT')) {
    c.next();
    return { kind: 'default' };
  }
  if (single && c.isWord('ON', 'OFF', 'ALL', 'BINARY')) return { kind: 'literal', value: c.next().upper };
  const start = c.pos;
  let depth = 0;
  while (!c.atEnd()) {
    const t = c.peek();
    if (t?.text === '(') depth++;
    else if (t?.text === ')') depth--;
    else if (t?.text === ',' && depth === 0) break;
    c.next();
  }
  if (c.pos === start) throw c.error();
  return parseExprTokens(c.sql, c.tokens, start, c.pos);
}
