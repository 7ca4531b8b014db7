/**
 * CREATE / ALTER / DROP / RENAME USER, SET PASSWORD, GRANT, REVOKE and SHOW GRANTS
 * (token-level). Roles, proxy grants, routine and column privileges are reported as 1235.
 */
import type { AccountStatement, AccountRef, UserSpec } from './ast-account.js';
import type { Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { accountList, accountName, accountRef, identified, privilegeLevel, privilegeList } from './parse-account-parts.js';
import { notSupported } from './parse-error.js';

/** True when the cursor (at the statement start) begins an account statement. */
export function isAccountStatement(c: Cursor): boolean {
  const a = c.peek()?.upper;
  const b = c.peek(1)?.upper;
  if (a === 'GRANT' || a === 'REVOKE') return true;
  if ((a === 'CREATE' || a === 'DROP' || a === 'ALTER' || a === 'RENAME') && (b === 'USER' || b === 'ROLE')) return true;
  if (a === 'SHOW' && b === 'GRANTS') return true;
  return a === 'SET' && b === 'PASSWORD';
}

export function parseAccount(c: Cursor): Statement {
  const first = c.next().upper;
  if (c.isWord('ROLE')) throw notSupported(`${first} ROLE`);
  const stmt = statement(c, first);
  c.expectEnd();
  return { kind: 'account', stmt };
}

function statement(c: Cursor, first: string): AccountStatement {
  switch (first) {
    case 'CREATE':
      c.expectWord('USER');
      return createOrAlter(c, 'createUser', c.acceptWords('IF', 'NOT', 'EXISTS'));
    case 'ALTER':
      c.expectWord('USER');
      return createOrAlter(c, 'alterUser', c.acceptWords('IF', 'EXISTS'));
    case 'DROP': {
      c.expectWord('USER');
      const ifExists = c.acceptWords('IF', 'EXISTS');
      return { op: 'dropUser', ifExists, users: accountList(c, accountName) };
    }
    case 'RENAME':
      c.expectWord('USER');
      return {
        op: 'renameUser',
        pairs: accountList(c, (cc) => {
          const from = accountName(cc);
          cc.expectWord('TO');
          return { from, to: accountName(cc) };
        }),
      };
    case 'SET':
      return setPassword(c);
    case 'GRANT':
      return grant(c);
    case 'REVOKE':
      return revoke(c);
    case 'SHOW':
      return showGrants(c);
    default:
      throw c.error();
  }
}

function createOrAlter(c: Cursor, op: 'createUser' | 'alterUser', ifFlag: boolean): AccountStatement {
  const users = accountList(c, (cc): UserSpec => {
    const account = op === 'alterUser' ? accountRef(cc) : accountName(cc);
    const password = identified(cc);
    if (password !== undefined && op === 'alterUser') skipCurrentPasswordClauses(cc);
    return password === undefined ? { account } : { account, password };
  });
  skipAccountOptions(c);
  return op === 'createUser' ? { op, ifNotExists: ifFlag, users } : { op, ifExists: ifFlag, users };
}

/**
 * Options that change nothing here are accepted: REQUIRE NONE, ACCOUNT UNLOCK,
 * PASSWORD EXPIRE [DEFAULT | NEVER], COMMENT '...'. Anything else is 1235.
 */
function skipAccountOptions(c: Cursor): void {
  while (!c.atEnd()) {
    if (c.acceptWords('REQUIRE', 'NONE') || c.acceptWords('ACCOUNT', 'UNLOCK')) continue;
    if (c.acceptWords('PASSWORD', 'EXPIRE')) {
      c.acceptWord('DEFAULT', 'NEVER');
      continue;
    }
    if (c.acceptWord('COMMENT')) {
      c.string();
      continue;
    }
    const a = c.peek()?.upper ?? '';
    const b = c.peek(1)?.upper ?? '';
    throw notSupported(a === 'DEFAULT' && b === 'ROLE' ? 'roles' : `${a} ${b}`.trim());
  }
}

/** `REPLACE 'current'` is accepted (the current password is not required); dual passwords are not. */
function skipCurrentPasswordClauses(c: Cursor): void {
  if (c.acceptWord('REPLACE')) c.string();
  if (c.isWord('RETAIN')) throw notSupported('RETAIN CURRENT PASSWORD');
}

function setPassword(c: Cursor): AccountStatement {
  c.expectWord('PASSWORD');
  const account: AccountRef | undefined = c.acceptWord('FOR') ? accountRef(c) : undefined;
  if (c.isWord('TO')) throw notSupported('RANDOM PASSWORD');
  c.expectOp('=');
  const password = c.string();
  skipCurrentPasswordClauses(c);
  return account === undefined ? { op: 'setPassword', password } : { op: 'setPassword', account, password };
}

function grant(c: Cursor): AccountStatement {
  if (c.isWord('PROXY')) throw notSupported('PROXY');
  const privileges = privilegeList(c);
  if (c.isWord('TO')) throw notSupported('roles');
  c.expectWord('ON');
  const level = privilegeLevel(c);
  c.expectWord('TO');
  const users = accountList(c, accountRef);
  const grantOption = c.acceptWords('WITH', 'GRANT', 'OPTION');
  if (c.isWord('AS')) throw notSupported('GRANT ... AS');
  return { op: 'grant', privileges, level, users, grantOption };
}

function revoke(c: Cursor): AccountStatement {
  const ifExists = c.acceptWords('IF', 'EXISTS');
  if (c.isWord('PROXY')) throw notSupported('PROXY');
  const privileges = privilegeList(c);
  if (c.isWord('FROM')) {
    if (privileges.length !== 2 || privileges[0] !== 'ALL' || privileges[1] !== 'GRANT OPTION') throw notSupported('roles');
    c.expectWord('FROM');
    const users = accountList(c, accountRef);
    return { op: 'revokeAll', users, ifExists, ignoreUnknownUser: ignoreUnknown(c) };
  }
  c.expectWord('ON');
  const level = privilegeLevel(c);
  c.expectWord('FROM');
  const users = accountList(c, accountRef);
  return { op: 'revoke', privileges, level, users, ifExists, ignoreUnknownUser: ignoreUnknown(c) };
}

function ignoreUnknown(c: Cursor): boolean {
  return c.acceptWords('IGNORE', 'UNKNOWN', 'USER');
}

function showGrants(c: Cursor): AccountStatement {
  c.expectWord('GRANTS');
  if (!c.acceptWord('FOR')) return { op: 'showGrants' };
  const account = accountRef(c);
  if (c.isWord('USING')) throw notSupported('roles');
  return { op: 'showGrants', account };
}
