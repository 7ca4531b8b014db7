/** Pieces of account statements: account names, IDENTIFIED clauses, privilege lists and levels. */
import { SqlError } from '../../errors/index.js';
import type { AccountName, AccountRef, PrivilegeLevel } from './ast-account.js';
import type { Cursor } from './cursor.js';
import type { Token } from './lexer.js';
import { notSupported } from './parse-error.js';

const MAX_USER = 32;
const MAX_HOST = 255;
const PLUGINS = new Set(['mysql_native_password', 'caching_sha2_password']);

/** `'u'@'h'`, `u@h`, `"u"@'%'`, `` `u`@`h` ``, or `'u'` alone (host `%`). */
export function accountName(c: Cursor): AccountName {
  const t = c.peek();
  if (t === undefined || (t.type !== 'string' && t.type !== 'qident' && t.type !== 'word')) throw c.error();
  c.pos++;
  const user = t.type === 'word' ? t.text : String(t.value);
  let host = '%';
  const at = c.peek();
  if (at !== undefined && at.type === 'var') {
    if (at.text.startsWith('@@')) throw c.error();
    c.pos++;
    host = String(at.value);
    const quoted = at.text[1] === "'" || at.text[1] === '"' || at.text[1] === '`';
    // An unquoted host such as 127.0.0.1 or db-1.example lexes as several adjacent tokens.
    let end = at.end;
    for (let n = c.peek(); !quoted && n !== undefined && n.start === end && hostPiece(n); n = c.peek()) {
      host += n.text;
      end = n.end;
      c.pos++;
    }
  }
  if (user.length > MAX_USER) throw SqlError.of('ER_WRONG_STRING_LENGTH', user, 'user name', MAX_USER);
  if (host.length > MAX_HOST) throw SqlError.of('ER_WRONG_STRING_LENGTH', host, 'host name', MAX_HOST);
  return { user, host: host.toLowerCase() };
}

function hostPiece(t: Token): boolean {
  return t.type === 'word' || t.type === 'number' || (t.type === 'op' && (t.text === '.' || t.text === '-' || t.text === ':'));
}

/** An account name, or CURRENT_USER [()] / USER() for the session's own account. */
export function accountRef(c: Cursor): AccountRef {
  const callsCurrent = c.isWord('USER') && c.peek(1)?.text === '(';
  if (c.isWord('CURRENT_USER') || callsCurrent) {
    c.pos++;
    if (c.acceptOp('(')) c.expectOp(')');
    return { current: true };
  }
  return accountName(c);
}

export function accountList<T>(c: Cursor, one: (c: Cursor) => T): T[] {
  const out = [one(c)];
  while (c.acceptOp(',')) out.push(one(c));
  return out;
}

/**
 * `IDENTIFIED BY 'pw'` or `IDENTIFIED WITH plugin [BY 'pw']` (the two plugins the server speaks);
 * undefined when the clause is absent. Hashes (`AS '...'`) and random passwords are not supported.
 */
export function identified(c: Cursor): string | undefined {
  if (!c.acceptWord('IDENTIFIED')) return undefined;
  if (c.acceptWord('WITH')) {
    const plugin = c.name();
    if (!PLUGINS.has(plugin.toLowerCase())) throw notSupported(`authentication plugin '${plugin}'`);
    if (c.isWord('AS')) throw notSupported('IDENTIFIED WITH ... AS');
    if (!c.acceptWord('BY')) return '';
  } else c.expectWord('BY');
  if (c.isWord('RANDOM')) throw notSupported('RANDOM PASSWORD');
  return c.string();
}

/**
 * A privilege list up to ON / TO / FROM: each item's words upper-cased and joined with one space
 * (`CREATE TEMPORARY TABLES`); `ALL PRIVILEGES` becomes `ALL`. Column lists are not supported.
 */
export function privilegeList(c: Cursor): string[] {
  const out: string[] = [];
  do {
    const words: string[] = [];
    for (let t = c.peek(); t !== undefined; t = c.peek()) {
      if (t.type === 'word' && (t.upper === 'ON' || t.upper === 'TO' || t.upper === 'FROM')) break;
      if (t.type === 'word') words.push(t.upper);
      else if (t.type === 'qident' || t.type === 'string') words.push(String(t.value).toUpperCase());
      else break;
      c.pos++;
    }
    if (c.isOp('(')) throw notSupported('column-level privileges');
    if (words.length === 0) throw c.error();
    const name = words.join(' ');
    out.push(name === 'ALL PRIVILEGES' ? 'ALL' : name);
  } while (c.acceptOp(','));
  return out;
}

/** `[TABLE] *.* | * | db.* | db.tbl | tbl`. */
export function privilegeLevel(c: Cursor): PrivilegeLevel {
  if (c.isWord('FUNCTION', 'PROCEDURE')) throw notSupported('routine privileges');
  c.acceptWord('TABLE');
  if (c.acceptOp('*')) {
    if (!c.acceptOp('.')) return { kind: 'db' };
    c.expectOp('*');
    return { kind: 'global' };
  }
  const first = c.ident();
  if (!c.acceptOp('.')) return { kind: 'table', table: first };
  if (c.acceptOp('*')) return { kind: 'db', db: first };
  return { kind: 'table', db: first, table: c.ident() };
}
