import { describe, expect, it } from 'vitest';
import { parseStatement, type AccountStatement } from '../../../src/sql/parse/index.js';

const a = (sql: string): AccountStatement => {
  const s = parseStatement(sql).stmt;
  if (s.kind !== 'account') throw new Error(`not an account statement: ${s.kind}`);
  return s.stmt;
};
const errno = (sql: string): number => {
  try {
    parseStatement(sql);
  } catch (err) {
    return (err as { errno: number }).errno;
  }
  throw new Error(`parsed: ${sql}`);
};

describe('account names', () => {
  it('quoted, bare, host defaulting to % and lower-cased', () => {
    expect(a("DROP USER 'u'@'localhost', u2, \"u3\"@'%', `u4`@`10.0.0.%`, u5@LOCALHOST")).toEqual({
      op: 'dropUser',
      ifExists: false,
      users: [
        { user: 'u', host: 'localhost' },
        { user: 'u2', host: '%' },
        { user: 'u3', host: '%' },
        { user: 'u4', host: '10.0.0.%' },
        { user: 'u5', host: 'localhost' },
      ],
    });
  });
  it('unquoted IP and dashed host names', () => {
    expect(a('DROP USER IF EXISTS u@127.0.0.1, v@db-1.example')).toEqual({
      op: 'dropUser',
      ifExists: true,
      users: [{ user: 'u', host: '127.0.0.1' }, { user: 'v', host: 'db-1.example' }],
    });
  });
  it('rejects over-long user names with 1470', () => {
    expect(errno(`DROP USER '${'x'.repeat(33)}'`)).toBe(1470);
  });
});

describe('CREATE / ALTER / RENAME USER, SET PASSWORD', () => {
  it('CREATE USER with passwords and accepted options', () => {
    expect(a("CREATE USER IF NOT EXISTS 'app'@'%' IDENTIFIED BY 'pw', ro IDENTIFIED WITH mysql_native_password BY 'x', nopw REQUIRE NONE PASSWORD EXPIRE NEVER ACCOUNT UNLOCK")).toEqual({
      op: 'createUser',
      ifNotExists: true,
      users: [
        { account: { user: 'app', host: '%' }, password: 'pw' },
        { account: { user: 'ro', host: '%' }, password: 'x' },
        { account: { user: 'nopw', host: '%' } },
      ],
    });
  });
  it('ALTER USER, including USER() and CURRENT_USER', () => {
    expect(a("ALTER USER USER() IDENTIFIED BY 'n'")).toEqual({ op: 'alterUser', ifExists: false, users: [{ account: { current: true }, password: 'n' }] });
    expect(a("ALTER USER IF EXISTS CURRENT_USER() IDENTIFIED BY 'n' REPLACE 'old'")).toMatchObject({ ifExists: true });
  });
  it('RENAME USER and SET PASSWORD', () => {
    expect(a("RENAME USER a TO b@'h', c TO d")).toEqual({
      op: 'renameUser',
      pairs: [{ from: { user: 'a', host: '%' }, to: { user: 'b', host: 'h' } }, { from: { user: 'c', host: '%' }, to: { user: 'd', host: '%' } }],
    });
    expect(a("SET PASSWORD = 'p'")).toEqual({ op: 'setPassword', password: 'p' });
    expect(a("SET PASSWORD FOR 'u'@'%' = 'p'")).toEqual({ op: 'setPassword', account: { user: 'u', host: '%' }, password: 'p' });
  });
  it('reports roles, hashes and lock options as 1235', () => {
    expect(errno('CREATE ROLE r')).toBe(1235);
    expect(errno("CREATE USER u IDENTIFIED WITH mysql_native_password AS '*ABC'")).toBe(1235);
    expect(errno('CREATE USER u ACCOUNT LOCK')).toBe(1235);
    expect(errno('CREATE USER u DEFAULT ROLE r')).toBe(1235);
  });
});

describe('GRANT / REVOKE / SHOW GRANTS', () => {
  it('privilege lists and levels', () => {
    expect(a("GRANT SELECT, INSERT, CREATE TEMPORARY TABLES ON shop.* TO 'app'@'%' WITH GRANT OPTION")).toEqual({
      op: 'grant',
      privileges: ['SELECT', 'INSERT', 'CREATE TEMPORARY TABLES'],
      level: { kind: 'db', db: 'shop' },
      users: [{ user: 'app', host: '%' }],
      grantOption: true,
    });
    expect(a('GRANT ALL PRIVILEGES ON *.* TO u')).toMatchObject({ privileges: ['ALL'], level: { kind: 'global' } });
    expect(a('GRANT ALL ON * TO u')).toMatchObject({ level: { kind: 'db' } });
    expect(a('GRANT UPDATE ON TABLE d.t TO u, v')).toMatchObject({ level: { kind: 'table', db: 'd', table: 't' } });
    expect(a('GRANT DELETE ON t TO CURRENT_USER')).toMatchObject({ level: { kind: 'table', table: 't' }, users: [{ current: true }] });
    expect(a('GRANT SYSTEM_VARIABLES_ADMIN ON *.* TO u')).toMatchObject({ privileges: ['SYSTEM_VARIABLES_ADMIN'] });
  });
  it('REVOKE forms', () => {
    expect(a('REVOKE IF EXISTS SELECT ON d.* FROM u IGNORE UNKNOWN USER')).toEqual({
      op: 'revoke',
      privileges: ['SELECT'],
      level: { kind: 'db', db: 'd' },
      users: [{ user: 'u', host: '%' }],
      ifExists: true,
      ignoreUnknownUser: true,
    });
    expect(a('REVOKE ALL PRIVILEGES, GRANT OPTION FROM u')).toEqual({
      op: 'revokeAll',
      users: [{ user: 'u', host: '%' }],
      ifExists: false,
      ignoreUnknownUser: false,
    });
  });
  it('SHOW GRANTS [FOR ...]', () => {
    expect(a('SHOW GRANTS')).toEqual({ op: 'showGrants' });
    expect(a("SHOW GRANTS FOR 'u'@'h'")).toEqual({ op: 'showGrants', account: { user: 'u', host: 'h' } });
    expect(a('SHOW GRANTS FOR CURRENT_USER()')).toEqual({ op: 'showGrants', account: { current: true } });
  });
  it('unsupported forms are 1235, malformed ones 1064', () => {
    expect(errno('GRANT SELECT (a) ON t TO u')).toBe(1235);
    expect(errno('GRANT r1 TO u')).toBe(1235);
    expect(errno('GRANT PROXY ON a TO b')).toBe(1235);
    expect(errno('GRANT EXECUTE ON PROCEDURE d.p TO u')).toBe(1235);
    expect(errno('GRANT ON *.* TO u')).toBe(1064);
    expect(errno('GRANT SELECT ON *.* u')).toBe(1064);
  });
});
