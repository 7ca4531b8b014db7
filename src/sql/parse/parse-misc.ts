/** EXPLAIN / DESCRIBE, KILL, and statements accepted as no-ops (LOCK/UNLOCK TABLES, ANALYZE, FLUSH, DO). */
import type { Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseExprTokens } from './lib-statement.js';
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
  if (!c.isWord('SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE') && !c.isOp('(')) throw c.error();
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

/** Accepted and ignored: the statement's leading words as `what`. */
export function parseNoop(c: Cursor): Statement | undefined {
  const first = c.peek();
  if (first === undefined || first.type !== 'word' || !NOOPS.has(first.upper)) return undefined;
  if (first.upper === 'DO') parseExprTokens(c.sql, c.tokens, 1, c.tokens.length);
  const second = c.peek(1);
  const what = second && second.type === 'word' ? `${first.upper} ${second.upper}` : first.upper;
  return { kind: 'noop', what };
}
