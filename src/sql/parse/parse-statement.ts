/** parseStatement: the dispatcher over fast paths, token-level parsers and node-sql-parser. */
import { SqlError } from '../../errors/index.js';
import type { Statement } from './ast.js';
import { Cursor } from './cursor.js';
import { parseAlterTable, parseRenameTable } from './ddl-alter.js';
import { parseCreate, parseDrop, parseTruncate } from './ddl-misc.js';
import { isCreateView, parseCreateView, parseDropView } from './ddl-view.js';
import { parseFastInsert } from './fast-insert.js';
import { parseSimple } from './fast-simple.js';
import { tokenize, type Token } from './lexer.js';
import { parseWithLib } from './lib-statement.js';
import { notSupported, parseError } from './parse-error.js';
import { parseAccount, isAccountStatement } from './parse-account.js';
import { parseAdmin } from './parse-admin.js';
import { parseExplain, parseKill, parseNoop } from './parse-misc.js';
import { parseSet } from './parse-set.js';
import { parseShow } from './parse-show.js';
import { planSlots } from './slots.js';

export interface ParsedStatement {
  readonly stmt: Statement;
  readonly paramCount: number;
}

export interface CoreParse extends ParsedStatement {
  /** Every lifted literal became a `param` node (only with asParams). */
  readonly cacheable: boolean;
  /** The statement with lifted literals inlined as literals. */
  readonly inlined: () => Statement;
}

const DML = new Set(['SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'WITH']);

export function parseStatement(sql: string): ParsedStatement {
  const tokens = statementTokens(sql);
  const r = parseTokens(sql, tokens, false);
  return { stmt: r.stmt, paramCount: r.paramCount };
}

/** Tokens of one statement: trailing `;` dropped, 1065 when empty, 1064 on a second statement. */
export function statementTokens(sql: string): Token[] {
  const tokens = tokenize(sql);
  let n = tokens.length;
  while (n > 0 && tokens[n - 1]?.type === 'semi') n--;
  if (n === 0) throw SqlError.of('ER_EMPTY_QUERY');
  if (n < tokens.length) tokens.length = n;
  const semi = tokens.findIndex((t) => t.type === 'semi');
  if (semi >= 0) {
    const after = tokens[semi + 1];
    throw parseError(sql, after ? after.start : sql.length);
  }
  return tokens;
}

export function countParams(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) if (t.type === 'param') n++;
  return n;
}

/** True when the statement goes through node-sql-parser or the INSERT fast path (cacheable kinds). */
export function isDmlStart(tokens: readonly Token[]): boolean {
  const t = tokens[0];
  return t !== undefined && ((t.type === 'word' && DML.has(t.upper)) || (t.type === 'op' && t.text === '('));
}

export function parseTokens(sql: string, tokens: readonly Token[], asParams: boolean): CoreParse {
  const paramCount = countParams(tokens);
  if (isDmlStart(tokens)) return parseDml(sql, tokens, asParams, paramCount);
  const stmt = parseOther(sql, tokens);
  return { stmt, paramCount, cacheable: false, inlined: () => stmt };
}

function parseDml(sql: string, tokens: readonly Token[], asParams: boolean, paramCount: number): CoreParse {
  const first = tokens[0];
  if (first?.upper === 'INSERT' || first?.upper === 'REPLACE') {
    const plan = planSlots(sql, tokens, asParams);
    const fast = parseFastInsert(new Cursor(sql, tokens), plan);
    if (fast !== undefined) {
      const inlined = (): Statement => (asParams ? (parseFastInsert(new Cursor(sql, tokens), planSlots(sql, tokens, false)) ?? fast) : fast);
      return { stmt: fast, paramCount, cacheable: true, inlined };
    }
  }
  const r = parseWithLib(sql, tokens, asParams);
  return { stmt: r.stmt, paramCount, cacheable: r.cacheable, inlined: r.inlined };
}

function parseOther(sql: string, tokens: readonly Token[]): Statement {
  const c = new Cursor(sql, tokens);
  const simple = parseSimple(c);
  if (simple !== undefined) return simple;
  c.pos = 0;
  const noop = parseNoop(c);
  if (noop !== undefined) return noop;
  if (isAccountStatement(c)) return parseAccount(c);
  switch (tokens[0]?.upper) {
    case 'ADMIN':
      return parseAdmin(c);
    case 'CREATE':
      if (isCreateView(c)) return parseCreateView(c, (from) => parseTokens(sql, tokens.slice(from), false).stmt);
      return parseCreate(c);
    case 'DROP':
      if (c.isWordAt(1, 'VIEW')) return parseDropView(c);
      return parseDrop(c);
    case 'TRUNCATE':
      return parseTruncate(c);
    case 'SET':
      return parseSet(c);
    case 'SHOW':
      return parseShow(c);
    case 'EXPLAIN':
    case 'DESCRIBE':
    case 'DESC':
      return parseExplain(c, (from) => parseTokens(sql, tokens.slice(from), false).stmt);
    case 'KILL':
      return parseKill(c);
    case 'ALTER':
      if (c.isWordAt(1, 'TABLE', 'ONLINE', 'IGNORE')) return parseAlterTable(c);
      throw notSupported(`ALTER ${tokens[1]?.upper ?? ''}`.trim());
    case 'RENAME':
      if (c.isWordAt(1, 'TABLE', 'TABLES')) return parseRenameTable(c);
      throw notSupported(`RENAME ${tokens[1]?.upper ?? ''}`.trim());
    case 'PREPARE':
    case 'EXECUTE':
    case 'DEALLOCATE':
    case 'CALL':
    case 'LOAD':
    case 'HANDLER':
      throw notSupported(`${tokens[0]?.upper ?? ''} ${tokens[1]?.upper ?? ''}`.trim());
    default:
      throw c.error();
  }
}
