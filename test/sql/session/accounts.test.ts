/** Accounts and privileges driven through Sessions (no sockets): storage, checks, messages. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/sql/session/index.js';
import { openTestEngine, textRows, type TestEngine } from './session-helpers.js';

let t: TestEngine;
let root: Session;
let nextId = 50_000;

beforeAll(async () => {
  t = await openTestEngine('rootpw');
  root = await t.open();
  await root.query('CREATE DATABASE shop');
  await root.query('CREATE TABLE shop.items (id INT PRIMARY KEY, name VARCHAR(20))');
  await root.query("INSERT INTO shop.items VALUES (1, 'a')");
  await root.query('CREATE DATABASE other');
});
afterAll(async () => {
  await t.close();
});

function login(user: string, database?: string): Promise<Session> {
  return t.engine.openSession({
    connectionId: nextId++,
    user,
    host: '10.0.0.7',
    collationId: 45,
    foundRows: false,
    ...(database === undefined ? {} : { database }),
  });
}

async function failure(p: Promise<unknown>): Promise<{ errno: number; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { errno: number; message: string };
    return { errno: e.errno, message: e.message };
  }
  throw new Error('expected an error');
}

async function grants(s: Session, sql = 'SHOW GRANTS'): Promise<string[]> {
  return textRows(await s.query(sql)).map((r) => r[0] ?? '');
}

describe('accounts', () => {
  it('stores only password hashes and finds accounts by user and host', async () => {
    await root.query("CREATE USER 'app'@'%' IDENTIFIED BY 'secret'");
    await root.query("CREATE USER 'app'@'10.0.0.7' IDENTIFIED BY 'exact'");
    const wild = await t.engine.lookupUser('app', '192.168.1.1');
    const exact = await t.engine.lookupUser('app', '10.0.0.7');
    expect(wild?.nativeHash.length).toBe(20);
    expect(Buffer.from(exact?.nativeHash ?? []).equals(Buffer.from(wild?.nativeHash ?? []))).toBe(false);
    await root.query("DROP USER 'app'@'10.0.0.7'");
    expect(await t.engine.lookupUser('nobody', '10.0.0.7')).toBeNull();
  });

  it('reports duplicates and missing accounts as MySQL does', async () => {
    expect(await failure(root.query("CREATE USER 'app'"))).toEqual({ errno: 1396, message: "Operation CREATE USER failed for 'app'@'%'" });
    await root.query("CREATE USER IF NOT EXISTS 'app'");
    expect(textRows(await root.query('SHOW WARNINGS'))).toEqual([['Note', '3163', "Authorization ID 'app'@'%' already exists."]]);
    expect(await failure(root.query("DROP USER 'ghost'@'%', 'ghost2'"))).toEqual({
      errno: 1396,
      message: "Operation DROP USER failed for 'ghost'@'%','ghost2'@'%'",
    });
    await root.query('DROP USER IF EXISTS ghost');
    expect(textRows(await root.query('SHOW WARNINGS'))).toEqual([['Note', '3162', "Authorization ID 'ghost'@'%' does not exist."]]);
    expect((await failure(root.query("DROP USER 'root'@'%'"))).errno).toBe(1396);
    expect((await failure(root.query("CREATE USER 'root'@'localhost'"))).errno).toBe(1396);
    expect(await failure(root.query("SET PASSWORD FOR ghost = 'x'"))).toEqual({ errno: 1133, message: "Can't find any matching row in the user table" });
    expect((await failure(root.query('GRANT SELECT ON *.* TO ghost'))).message).toBe('You are not allowed to create a user with GRANT');
  });

  it('enforces table, database and global privileges with exact messages', async () => {
    const s = await login('app');
    expect(await failure(s.query('SELECT * FROM shop.items'))).toEqual({
      errno: 1142,
      message: "SELECT command denied to user 'app'@'10.0.0.7' for table 'items'",
    });
    expect(await failure(s.query('USE shop'))).toEqual({ errno: 1044, message: "Access denied for user 'app'@'%' to database 'shop'" });
    expect(await failure(s.useDatabase('shop'))).toMatchObject({ errno: 1044 });
    expect(await failure(s.query('CREATE DATABASE newdb'))).toMatchObject({ errno: 1044 });
    expect(await failure(s.query("CREATE USER 'x'"))).toEqual({
      errno: 1227,
      message: 'Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation',
    });
    expect(await failure(s.query('SET GLOBAL max_connections = 10'))).toEqual({
      errno: 1227,
      message: 'Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation',
    });
    expect(textRows(await s.query('SHOW DATABASES'))).toEqual([['information_schema']]);
    expect(textRows(await s.query('SELECT 1'))).toEqual([['1']]);

    await root.query('GRANT SELECT, INSERT ON shop.* TO app');
    expect(textRows(await s.query('SELECT name FROM shop.items'))).toEqual([['a']]);
    await s.query('USE shop');
    await s.query("INSERT INTO items VALUES (2, 'b')");
    expect(await failure(s.query('DELETE FROM items'))).toMatchObject({ errno: 1142, message: "DELETE command denied to user 'app'@'10.0.0.7' for table 'items'" });
    expect(await failure(s.query("REPLACE INTO items VALUES (2, 'c')"))).toMatchObject({ message: "DELETE command denied to user 'app'@'10.0.0.7' for table 'items'" });
    expect(await failure(s.query('DROP TABLE items'))).toMatchObject({ errno: 1142 });
    expect(await failure(s.query('CREATE INDEX i ON items (name)'))).toMatchObject({ message: "INDEX command denied to user 'app'@'10.0.0.7' for table 'items'" });
    expect(await failure(s.query('SELECT * FROM other.t'))).toMatchObject({ errno: 1142 });
    expect(textRows(await s.query('SHOW DATABASES'))).toEqual([['information_schema'], ['shop']]);

    await root.query('REVOKE INSERT ON shop.* FROM app');
    expect(await failure(s.query("INSERT INTO items VALUES (3, 'c')"))).toMatchObject({ errno: 1142 });
    await s.close();
  });

  it('checks the handshake database and subqueries', async () => {
    expect(await failure(login('app', 'other'))).toMatchObject({ errno: 1044 });
    await root.query('CREATE TABLE other.secret (id INT PRIMARY KEY)');
    const s = await login('app', 'shop');
    expect(await failure(s.query('SELECT * FROM items WHERE id IN (SELECT id FROM other.secret)'))).toMatchObject({
      message: "SELECT command denied to user 'app'@'10.0.0.7' for table 'secret'",
    });
    await root.query('GRANT SELECT ON other.secret TO app');
    expect(textRows(await s.query('SELECT COUNT(*) FROM other.secret'))).toEqual([['0']]);
    await s.close();
  });

  it('SHOW GRANTS in MySQL 8.0 format', async () => {
    await root.query("CREATE USER 'g'@'%' IDENTIFIED BY 'pw'");
    await root.query('GRANT SELECT, INSERT ON `shop`.* TO g');
    await root.query('GRANT ALL ON other.* TO g WITH GRANT OPTION');
    await root.query('GRANT UPDATE ON shop.items TO g');
    await root.query('GRANT PROCESS, SYSTEM_VARIABLES_ADMIN ON *.* TO g');
    expect(await grants(root, "SHOW GRANTS FOR 'g'@'%'")).toEqual([
      'GRANT PROCESS ON *.* TO `g`@`%`',
      'GRANT SYSTEM_VARIABLES_ADMIN ON *.* TO `g`@`%`',
      'GRANT ALL PRIVILEGES ON `other`.* TO `g`@`%` WITH GRANT OPTION',
      'GRANT SELECT, INSERT ON `shop`.* TO `g`@`%`',
      'GRANT UPDATE ON `shop`.`items` TO `g`@`%`',
    ]);
    const shown = await root.query('SHOW GRANTS FOR g');
    expect(shown.kind === 'rows' ? shown.columns.map((c) => c.name) : []).toEqual(['Grants for g@%']);
    const rootLines = await grants(root);
    expect(rootLines[0]).toMatch(/^GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, .* DROP ROLE ON \*\.\* TO `root`@`%` WITH GRANT OPTION$/);
    expect(rootLines[1]).toMatch(/^GRANT APPLICATION_PASSWORD_ADMIN,.*SYSTEM_VARIABLES_ADMIN,.* ON \*\.\* TO `root`@`%` WITH GRANT OPTION$/);
    const g = await login('g');
    expect(await grants(g)).toHaveLength(5);
    expect(await failure(g.query('SHOW GRANTS FOR root'))).toEqual({ errno: 1142, message: "SELECT command denied to user 'g'@'10.0.0.7' for table 'user'" });
    expect(await failure(root.query('SHOW GRANTS FOR nobody'))).toEqual({ errno: 1141, message: "There is no such grant defined for user 'nobody' on host '%'" });
    await g.query('SET GLOBAL max_connections = DEFAULT');
    // g holds ALL on other.* WITH GRANT OPTION: it may pass on privileges there, not elsewhere.
    await g.query('GRANT SELECT ON other.* TO app');
    expect(await failure(g.query('GRANT SELECT ON shop.* TO app'))).toEqual({ errno: 1044, message: "Access denied for user 'g'@'%' to database 'shop'" });
    expect(await failure(g.query('GRANT SELECT ON *.* TO app'))).toEqual({ errno: 1045, message: "Access denied for user 'g'@'%' (using password: YES)" });
    await g.close();
  });

  it('validates privilege levels', async () => {
    expect(await failure(root.query('GRANT SUPER ON shop.* TO g'))).toEqual({ errno: 1221, message: 'Incorrect usage of DB GRANT and GLOBAL PRIVILEGES' });
    expect((await failure(root.query('GRANT EXECUTE ON shop.items TO g'))).errno).toBe(1144);
    expect(await failure(root.query('GRANT BACKUP_ADMIN ON shop.* TO g'))).toEqual({ errno: 3619, message: 'Illegal privilege level specified for BACKUP_ADMIN' });
    expect((await failure(root.query('GRANT NOPE ON *.* TO g'))).errno).toBe(3929);
    expect((await failure(root.query('GRANT SELECT ON shop.nope TO g'))).message).toBe("Table 'shop.nope' doesn't exist");
    expect(await failure(root.query('REVOKE SELECT ON nodb.* FROM g'))).toEqual({ errno: 1141, message: "There is no such grant defined for user 'g' on host '%'" });
    expect(await failure(root.query('REVOKE SELECT ON shop.nope FROM g'))).toMatchObject({ errno: 1147 });
    await root.query('REVOKE IF EXISTS SELECT ON nodb.* FROM g');
    expect(textRows(await root.query('SHOW WARNINGS'))).toEqual([['Warning', '1141', "There is no such grant defined for user 'g' on host '%'"]]);
    await root.query('REVOKE ALL PRIVILEGES, GRANT OPTION FROM g');
    expect(await grants(root, 'SHOW GRANTS FOR g')).toEqual(['GRANT USAGE ON *.* TO `g`@`%`']);
  });

  it('passwords: SET PASSWORD, ALTER USER, RENAME USER; grants apply to the renamed account', async () => {
    const before = await t.engine.lookupUser('app', '1.2.3.4');
    const s = await login('app');
    await s.query("SET PASSWORD = 'changed'");
    expect(Buffer.from((await t.engine.lookupUser('app', '1.2.3.4'))?.sha2Hash ?? []).equals(Buffer.from(before?.sha2Hash ?? []))).toBe(false);
    expect(await failure(s.query("SET PASSWORD FOR g = 'x'"))).toMatchObject({ errno: 1044, message: "Access denied for user 'app'@'%' to database 'mysql'" });
    expect(await failure(s.query("ALTER USER root IDENTIFIED BY 'x'"))).toMatchObject({ errno: 1227 });
    await s.query("ALTER USER CURRENT_USER() IDENTIFIED BY 'again'");
    await s.close();
    await root.query('RENAME USER app TO app2');
    expect(await t.engine.lookupUser('app', '1.2.3.4')).toBeNull();
    const s2 = await login('app2', 'shop');
    expect(textRows(await s2.query('SELECT COUNT(*) FROM items'))).toEqual([['2']]);
    await s2.close();
    expect((await failure(root.query('RENAME USER nobody TO x'))).message).toBe("Operation RENAME USER failed for 'nobody'@'%'");
  });
});
