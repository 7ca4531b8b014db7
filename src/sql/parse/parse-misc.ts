/** EXPLAIN / DESCRIBE, KILL, and statements accepted as no-ops (LOCK/UNLOCK TABLES, ANALYZE, FLUSH, DO, ALTER TABLE … KEYS). */
import type { Expr, Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseExprTokens } from './lib-statement.js';
import { parseLockTables } from './parse-lock-tables.js';
import { describeTable } from './parse-show.js';

/** `EXPLAIN|DESCRIBE|DESC [ANALYZE] [FORMAT=x] stmt` or `... table`. `parseRest` parses from a token index. */
export function parseExplain(c: Cursor, parseRest: (from: number) => Statement): Statement {
  c.expectWord('EXPLAIN', 'DESCRIBE', 'DESC');
  const analyze = c.acceptWord('ANALYZE') !== undefined;
  if (c.acceptWord('FORMAT')) {
    c.expectOp('=');
    c.name();
  } else c.acceptWord('EXTENDED', 'PARTITIONS');
  if (!analyze && (c.isIdent() && !c.isWord('SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'TABLE', 'WITH'))) {
    return describeTable(c);
  }
  if (!c.isWord('SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'WITH') && !c.isOp('(')) throw c.error();
  return { kind: 'explain', stmt: parseRest(c.pos), analyze };
}

export function parseKill(c: Cursor): Statement {
  c.expectWord('KILL');
  const which = c.acceptWord('QUERY', 'CONNECTION');
  const start = c.pos;
  if (c.atEnd()) throw c.error();
  return { kind: 'kill', connectionId: parseExprTokens(c.sql, c.tokens, start, c.tokens.length), queryOnly: which === 'QUERY' };
}

const NOOPS = new Set(['LOCK', 'UNLOCK', 'ANALYZE', 'FLUSH', 'DO', 'OPTIMIZE', 'CHECKSUM', 'CHECK', 'REPAIR']);

/**
 * `ALTER TABLE t DISABLE|ENABLE KEYS`: mysqldump wraps every table's rows in it. It only affects
 * MyISAM non-unique indexes (InnoDB ignores it with a note), so it is a no-op here; unlike MySQL,
 * a missing table is not reported.
 */
function alterTableKeys(c: Cursor): Statement | undefined {
  if (!c.isWord('ALTER') || !c.isWordAt(1, 'TABLE')) return undefined;
  const t = c.tokens;
  const action = t[t.length - 2];
  const last = t[t.length - 1];
  if (last?.type !== 'word' || last.upper !== 'KEYS' || action?.type !== 'word') return undefined;
  if (action.upper !== 'DISABLE' && action.upper !== 'ENABLE') return undefined;
  const isName = (k: number): boolean => t[k]?.type === 'word' || t[k]?.type === 'qident';
  const plain = t.length === 5 && isName(2);
  const qualified = t.length === 7 && isName(2) && t[3]?.type === 'op' && t[3].text === '.' && isName(4);
  return plain || qualified ? { kind: 'noop', what: `ALTER TABLE ${action.upper} KEYS` } : undefined;
}

/** Accepted and ignored: the statement's leading words as `what`. */
export function parseNoop(c: Cursor): Statement | undefined {
  const keys = alterTableKeys(c);
  if (keys !== undefined) return keys;
  const first = c.peek();
  if (first === undefined || first.type !== 'word' || !NOOPS.has(first.upper)) return undefined;
  if (first.upper === 'DO') return { kind: 'noop', what: 'DO', exprs: doExprs(c) };
  if (first.upper === 'LOCK' && c.isWordAt(1, 'TABLES', 'TABLE')) return { kind: 'noop', what: 'LOCK TABLES', lockTables: parseLockTables(c) };
  const second = c.peek(1);
  const what = second && second.type === 'word' ? `${first.upper} ${second.upper}` : first.upper;
  return { kind: 'noop', what };
}

/** `DO e1, e2, ...`: the expressions split at top-level commas. */
function doExprs(c: Cursor): Expr[] {
  const out: Expr[] = [];
  let depth = 0;
  let start = 1;
  for (let i = 1; i <= c.tokens.length; i++) {
    const t = c.tokens[i];
    if (t !== undefined && t.type === 'op' && t.text === '(') depth++;
    else if (t !== undefined && t.type === 'op' && t.text === ')') depth--;
    else if (t === undefined || (depth === 0 && t.type === 'op' && t.text === ',')) {
      if (i === start) throw c.error();
      out.push(parseExprTokens(c.sql, c.tokens, start, i));
      start = i + 1;
    }
  }
  return out;
}
