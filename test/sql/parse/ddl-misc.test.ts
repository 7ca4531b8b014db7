import { describe, expect, it } from 'vitest';
import { parseStatement, type ColumnDef, type CreateTableStmt, type Statement } from '../../../src/sql/parse/index.js';
import { makeType } from '../../../src/types/index.js';

const p = (sql: string): Statement => parseStatement(sql).stmt;
const ct = (sql: string): CreateTableStmt => {
  const s = p(sql);
  if (s.kind !== 'createTable') throw new Error(s.kind);
  return s;
};
const colOf = (def: string): ColumnDef => {
  const c = ct(`CREATE TABLE t (${def})`).columns[0];
  if (!c) throw new Error('no column');
  return c;
};
const typeOf = (t: string) => colOf(`c ${t}`).type;

describe('sysbench prepare/cleanup DDL', () => {
  it('CREATE TABLE with executable comment', () => {
    const s = ct(`CREATE TABLE sbtest1(
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) /*! ENGINE = innodb */`);
    expect(s.table).toEqual({ name: 'sbtest1' });
    expect(s.columns.map((c) => c.name)).toEqual(['id', 'k', 'c', 'pad']);
    expect(s.columns[0]).toMatchObject({ type: makeType('int'), notNull: true, autoIncrement: true });
    expect(s.columns[1]).toMatchObject({ notNull: true, default: { kind: 'expr', expr: { kind: 'literal', value: '0' } } });
    expect(s.columns[2]).toMatchObject({ type: makeType('char', { length: 120 }), default: { kind: 'expr', expr: { kind: 'literal', value: '' } } });
    expect(s.indexes).toEqual([{ name: 'PRIMARY', columns: [{ name: 'id', desc: false }], primary: true, unique: true }]);
    expect(s.options).toEqual({ ENGINE: 'innodb' });
  });
  it('CREATE INDEX / DROP TABLE IF EXISTS', () => {
    expect(p('CREATE INDEX k_1 ON sbtest1(k)')).toEqual({
      kind: 'createIndex', table: { name: 'sbtest1' }, ifNotExists: false,
      index: { name: 'k_1', columns: [{ name: 'k', desc: false }], primary: false, unique: false },
    });
    expect(p('CREATE UNIQUE INDEX u ON db.t (a(10), b DESC)')).toMatchObject({ table: { db: 'db', name: 't' }, index: { unique: true, columns: [{ name: 'a', length: 10 }, { name: 'b', desc: true }] } });
    expect(p('DROP TABLE IF EXISTS sbtest1')).toEqual({ kind: 'dropTable', tables: [{ name: 'sbtest1' }], ifExists: true });
    expect(p('DROP TABLE a, db.b')).toEqual({ kind: 'dropTable', tables: [{ name: 'a' }, { db: 'db', name: 'b' }], ifExists: false });
    expect(p('DROP INDEX k_1 ON sbtest1')).toEqual({ kind: 'dropIndex', table: { name: 'sbtest1' }, name: 'k_1', ifExists: false });
  });
});

describe('column types', () => {
  it('integers', () => {
    expect(typeOf('TINYINT')).toEqual(makeType('tinyint'));
    expect(typeOf('SMALLINT(5) UNSIGNED')).toEqual(makeType('smallint', { length: 5, unsigned: true }));
    expect(typeOf('MEDIUMINT SIGNED')).toEqual(makeType('mediumint'));
    expect(typeOf('INT')).toEqual(makeType('int'));
    expect(typeOf('INTEGER UNSIGNED')).toEqual(makeType('int', { unsigned: true }));
    expect(typeOf('BIGINT(20) UNSIGNED')).toEqual(makeType('bigint', { length: 20, unsigned: true }));
    expect(typeOf('BOOLEAN')).toEqual(makeType('tinyint', { length: 1 }));
    expect(typeOf('BOOL')).toEqual(makeType('tinyint', { length: 1 }));
    expect(typeOf('TINYINT(1)')).toEqual(makeType('tinyint', { length: 1 }));
    expect(colOf('id SERIAL')).toMatchObject({ type: makeType('bigint', { unsigned: true }), notNull: true, autoIncrement: true, unique: true });
  });
  it('numeric', () => {
    expect(typeOf('DECIMAL')).toEqual(makeType('decimal', { length: 10, scale: 0 }));
    expect(typeOf('NUMERIC(12,3)')).toEqual(makeType('decimal', { length: 12, scale: 3 }));
    expect(typeOf('DECIMAL(5)')).toEqual(makeType('decimal', { length: 5, scale: 0 }));
    expect(typeOf('FLOAT')).toEqual(makeType('float'));
    expect(typeOf('DOUBLE')).toEqual(makeType('double'));
    expect(typeOf('DOUBLE PRECISION')).toEqual(makeType('double'));
    expect(typeOf('REAL')).toEqual(makeType('double'));
  });
  it('strings and binaries', () => {
    expect(typeOf('CHAR')).toEqual(makeType('char', { length: 1 }));
    expect(typeOf('VARCHAR(255)')).toEqual(makeType('varchar', { length: 255 }));
    expect(typeOf('TINYTEXT')).toEqual(makeType('text', { lob: 'tiny' }));
    expect(typeOf('TEXT')).toEqual(makeType('text'));
    expect(typeOf('MEDIUMTEXT')).toEqual(makeType('text', { lob: 'medium' }));
    expect(typeOf('LONGTEXT')).toEqual(makeType('text', { lob: 'long' }));
    expect(typeOf('BINARY(16)')).toEqual(makeType('binary', { length: 16 }));
    expect(typeOf('VARBINARY(32)')).toEqual(makeType('varbinary', { length: 32 }));
    expect(typeOf('TINYBLOB')).toEqual(makeType('blob', { lob: 'tiny' }));
    expect(typeOf('BLOB')).toEqual(makeType('blob'));
    expect(typeOf('MEDIUMBLOB')).toEqual(makeType('blob', { lob: 'medium' }));
    expect(typeOf('LONGBLOB')).toEqual(makeType('blob', { lob: 'long' }));
    expect(typeOf('VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci')).toEqual(makeType('varchar', { length: 10, collation: 'utf8mb4_general_ci' }));
  });
  it('temporal and JSON', () => {
    expect(typeOf('DATE')).toEqual(makeType('date'));
    expect(typeOf('DATETIME')).toEqual(makeType('datetime'));
    expect(typeOf('DATETIME(6)')).toEqual(makeType('datetime', { scale: 6 }));
    expect(typeOf('TIMESTAMP(3)')).toEqual(makeType('timestamp', { scale: 3 }));
    expect(typeOf('TIME')).toEqual(makeType('time'));
    expect(typeOf('YEAR')).toEqual(makeType('year'));
    expect(typeOf('JSON')).toEqual(makeType('json'));
  });
});

describe('column attributes, constraints, options', () => {
  it('attributes', () => {
    expect(colOf('a INT NULL DEFAULT NULL COMMENT \'hi\'')).toMatchObject({ notNull: false, default: { kind: 'expr', expr: { kind: 'literal', value: null } }, comment: 'hi' });
    expect(colOf('a DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6)')).toMatchObject({ default: { kind: 'now', fsp: 6 }, onUpdateNow: true });
    expect(colOf('a TIMESTAMP DEFAULT CURRENT_TIMESTAMP')).toMatchObject({ default: { kind: 'now', fsp: 0 } });
    expect(colOf('a INT DEFAULT (1 + 2)')).toMatchObject({ default: { kind: 'expr', expr: { kind: 'binary', op: '+' } } });
    expect(colOf('a INT DEFAULT -1')).toMatchObject({ default: { kind: 'expr', expr: { kind: 'literal', value: -1n } } });
    expect(colOf('a INT PRIMARY KEY AUTO_INCREMENT')).toMatchObject({ primaryKey: true, autoIncrement: true });
    expect(colOf('a INT UNIQUE KEY')).toMatchObject({ unique: true });
    expect(colOf('a INT UNIQUE')).toMatchObject({ unique: true });
  });
  it('table constraints and options', () => {
    const s = ct(`CREATE TABLE IF NOT EXISTS \`Posts\` (a INT, b INT, c INT,
      PRIMARY KEY (a, b), UNIQUE KEY uk (c), UNIQUE INDEX (b), UNIQUE (a), KEY k1 (b), INDEX (c),
      CONSTRAINT pk2 UNIQUE (c, a), CONSTRAINT fk1 FOREIGN KEY (b) REFERENCES \`Users\` (\`id\`) ON DELETE SET NULL ON UPDATE CASCADE,
      FOREIGN KEY (c) REFERENCES u(id)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin AUTO_INCREMENT=5 COMMENT='x';`);
    expect(s.ifNotExists).toBe(true);
    expect(s.indexes.map((i) => [i.name, i.primary, i.unique, i.columns.map((c) => c.name).join()])).toEqual([
      ['PRIMARY', true, true, 'a,b'], ['uk', false, true, 'c'], [undefined, false, true, 'b'], [undefined, false, true, 'a'],
      ['k1', false, false, 'b'], [undefined, false, false, 'c'], ['pk2', false, true, 'c,a'],
    ]);
    expect(s.foreignKeys).toEqual([
      { name: 'fk1', columns: ['b'], refTable: { name: 'Users' }, refColumns: ['id'], onDelete: 'SET NULL', onUpdate: 'CASCADE' },
      { columns: ['c'], refTable: { name: 'u' }, refColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
    ]);
    expect(s.options).toEqual({ ENGINE: 'InnoDB', 'DEFAULT CHARSET': 'utf8mb4', COLLATE: 'utf8mb4_bin', AUTO_INCREMENT: '5', COMMENT: 'x' });
    expect(ct('CREATE TABLE t (a int) CHARSET utf8mb4').options).toEqual({ 'DEFAULT CHARSET': 'utf8mb4' });
    expect(ct('CREATE TABLE t (a int) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci').options).toEqual({ 'DEFAULT CHARSET': 'utf8mb4', COLLATE: 'utf8mb4_unicode_ci' });
  });
  it('databases, truncate', () => {
    expect(p('CREATE DATABASE IF NOT EXISTS `x` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;')).toEqual({
      kind: 'createDatabase', name: 'x', ifNotExists: true, charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci',
    });
    expect(p('CREATE SCHEMA s')).toEqual({ kind: 'createDatabase', name: 's', ifNotExists: false });
    expect(p('DROP DATABASE IF EXISTS s')).toEqual({ kind: 'dropDatabase', name: 's', ifExists: true });
    expect(p('DROP SCHEMA s')).toEqual({ kind: 'dropDatabase', name: 's', ifExists: false });
    expect(p('TRUNCATE TABLE t')).toEqual({ kind: 'truncate', table: { name: 't' } });
    expect(p('TRUNCATE db.t')).toEqual({ kind: 'truncate', table: { db: 'db', name: 't' } });
  });
});

describe('transactions, USE, savepoints', () => {
  it('fast paths', () => {
    expect(p('begin')).toEqual({ kind: 'begin', readOnly: false });
    expect(p('START TRANSACTION')).toEqual({ kind: 'begin', readOnly: false });
    expect(p('START TRANSACTION READ ONLY')).toEqual({ kind: 'begin', readOnly: true });
    expect(p('start transaction with consistent snapshot')).toEqual({ kind: 'begin', readOnly: false });
    expect(p('START TRANSACTION READ WRITE;')).toEqual({ kind: 'begin', readOnly: false });
    expect(p('COMMIT WORK')).toEqual({ kind: 'commit' });
    expect(p('ROLLBACK')).toEqual({ kind: 'rollback' });
    expect(p('ROLLBACK WORK')).toEqual({ kind: 'rollback' });
    expect(p('USE `db`')).toEqual({ kind: 'use', db: 'db' });
    expect(p('SAVEPOINT `sp1`;')).toEqual({ kind: 'savepoint', name: 'sp1' });
    expect(p('ROLLBACK TO SAVEPOINT sp1')).toEqual({ kind: 'rollbackToSavepoint', name: 'sp1' });
    expect(p('ROLLBACK TO sp1')).toEqual({ kind: 'rollbackToSavepoint', name: 'sp1' });
    expect(p('RELEASE SAVEPOINT sp1')).toEqual({ kind: 'releaseSavepoint', name: 'sp1' });
  });
});

describe('SET', () => {
  it('names and charset', () => {
    expect(p('SET NAMES utf8mb4')).toEqual({ kind: 'setNames', charset: 'utf8mb4' });
    expect(p("SET NAMES 'UTF8MB4' COLLATE 'utf8mb4_bin'")).toEqual({ kind: 'setNames', charset: 'utf8mb4', collation: 'utf8mb4_bin' });
    expect(p('SET CHARACTER SET utf8')).toEqual({ kind: 'setNames', charset: 'utf8' });
    expect(p('SET NAMES DEFAULT')).toEqual({ kind: 'setNames', charset: 'default' });
  });
  it('variables', () => {
    const v = (sql: string) => {
      const s = p(sql);
      if (s.kind !== 'set') throw new Error(s.kind);
      return s.assignments;
    };
    expect(v("SET time_zone = '+00:00'")).toEqual([{ scope: 'session', name: 'time_zone', value: { kind: 'literal', value: '+00:00' } }]);
    expect(v('SET autocommit=0')).toEqual([{ scope: 'session', name: 'autocommit', value: { kind: 'literal', value: 0n } }]);
    expect(v('SET AUTOCOMMIT = 1')[0]?.name).toBe('autocommit');
    expect(v('SET @@x=?')).toEqual([{ scope: 'session', name: 'x', value: { kind: 'param', index: 0 } }]);
    expect(v('SET SESSION sql_mode = ?, @@GLOBAL.y = ?')).toEqual([
      { scope: 'session', name: 'sql_mode', value: { kind: 'param', index: 0 } },
      { scope: 'global', name: 'y', value: { kind: 'param', index: 1 } },
    ]);
    expect(v('SET SQL_SELECT_LIMIT=DEFAULT')).toEqual([{ scope: 'session', name: 'sql_select_limit', value: { kind: 'default' } }]);
    expect(v('SET GLOBAL max_connections = 10')[0]?.scope).toBe('global');
    expect(v('SET @u = 1 + 2, @v := CONCAT(\'a\', \'b\')').map((a) => [a.scope, a.name, a.value.kind])).toEqual([['user', 'u', 'binary'], ['user', 'v', 'func']]);
    expect(v('SET character_set_results = NULL')[0]?.value).toEqual({ kind: 'literal', value: null });
    expect(v('SET FOREIGN_KEY_CHECKS = OFF')[0]).toEqual({ scope: 'session', name: 'foreign_key_checks', value: { kind: 'literal', value: 'OFF' } });
    expect(v('SET @@session.tmp_table_size=16777216, max_heap_table_size=16777216').length).toBe(2);
  });
  it('transaction', () => {
    expect(p('SET TRANSACTION ISOLATION LEVEL READ COMMITTED')).toEqual({ kind: 'setTransaction', scope: 'next', isolation: 'READ COMMITTED' });
    expect(p('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ;')).toEqual({ kind: 'setTransaction', scope: 'session', isolation: 'REPEATABLE READ' });
    expect(p('SET GLOBAL TRANSACTION READ ONLY')).toEqual({ kind: 'setTransaction', scope: 'global', readOnly: true });
    expect(p('set transaction isolation level serializable, read write')).toEqual({ kind: 'setTransaction', scope: 'next', isolation: 'SERIALIZABLE', readOnly: false });
  });
});

describe('SHOW, DESCRIBE, EXPLAIN, KILL, no-ops', () => {
  const base = { kind: 'show', full: false, global: false };
  it('SHOW forms', () => {
    expect(p('SHOW FULL TABLES FROM db LIKE \'a%\'')).toEqual({ ...base, target: 'tables', full: true, db: 'db', like: 'a%' });
    expect(p('SHOW TABLES WHERE Tables_in_db = \'x\'')).toMatchObject({ target: 'tables', where: { kind: 'binary' } });
    expect(p('SHOW FULL COLUMNS FROM `Users`;')).toEqual({ ...base, target: 'columns', full: true, table: { name: 'Users' } });
    expect(p('SHOW COLUMNS FROM t FROM db LIKE \'a\'')).toEqual({ ...base, target: 'columns', table: { db: 'db', name: 't' }, like: 'a' });
    expect(p('show full fields from `t` where field = \'a\'')).toMatchObject({ target: 'columns', full: true, where: { kind: 'binary' } });
    for (const w of ['INDEX', 'INDEXES', 'KEYS']) expect(p(`SHOW ${w} FROM t`)).toEqual({ ...base, target: 'index', table: { name: 't' } });
    expect(p('SHOW CREATE TABLE db.t')).toEqual({ ...base, target: 'createTable', table: { db: 'db', name: 't' } });
    expect(p('SHOW CREATE DATABASE d')).toEqual({ ...base, target: 'createDatabase', db: 'd' });
    expect(p("SHOW GLOBAL VARIABLES LIKE 'max%'")).toEqual({ ...base, target: 'variables', global: true, like: 'max%' });
    expect(p("SHOW SESSION VARIABLES WHERE Variable_name = 'x'")).toMatchObject({ target: 'variables', global: false });
    expect(p('SHOW STATUS')).toEqual({ ...base, target: 'status' });
    expect(p('SHOW GLOBAL STATUS')).toEqual({ ...base, target: 'status', global: true });
    expect(p('SHOW WARNINGS')).toEqual({ ...base, target: 'warnings' });
    expect(p('SHOW ERRORS')).toEqual({ ...base, target: 'errors' });
    expect(p('SHOW ENGINES')).toEqual({ ...base, target: 'engines' });
    expect(p('SHOW COLLATION')).toEqual({ ...base, target: 'collation' });
    expect(p('SHOW CHARACTER SET')).toEqual({ ...base, target: 'charset' });
    expect(p('SHOW CHARSET')).toEqual({ ...base, target: 'charset' });
    expect(p('SHOW TABLE STATUS')).toEqual({ ...base, target: 'tableStatus' });
    expect(p('SHOW FULL PROCESSLIST')).toEqual({ ...base, target: 'processlist', full: true });
    expect(p('SHOW GRANTS')).toEqual({ kind: 'account', stmt: { op: 'showGrants' } });
    expect(p('SHOW PLUGINS')).toEqual({ ...base, target: 'plugins' });
  });
  it('DESCRIBE / EXPLAIN', () => {
    expect(p('DESCRIBE t')).toEqual({ ...base, target: 'columns', table: { name: 't' } });
    expect(p('DESC db.t')).toEqual({ ...base, target: 'columns', table: { db: 'db', name: 't' } });
    expect(p('EXPLAIN t')).toEqual({ ...base, target: 'columns', table: { name: 't' } });
    expect(p('EXPLAIN SELECT a FROM t WHERE id = ?')).toMatchObject({ kind: 'explain', analyze: false, stmt: { kind: 'select' } });
    expect(parseStatement('EXPLAIN SELECT a FROM t WHERE id = ?').paramCount).toBe(1);
    expect(p('EXPLAIN ANALYZE SELECT 1')).toMatchObject({ kind: 'explain', analyze: true });
    expect(p("EXPLAIN FORMAT=TREE UPDATE t SET a = 1")).toMatchObject({ kind: 'explain', stmt: { kind: 'update' } });
  });
  it('KILL and no-ops', () => {
    expect(p('KILL QUERY 12')).toEqual({ kind: 'kill', connectionId: { kind: 'literal', value: 12n }, queryOnly: true });
    expect(p('KILL CONNECTION 3')).toMatchObject({ queryOnly: false });
    expect(p('KILL 3')).toMatchObject({ queryOnly: false });
    expect(p('KILL QUERY ?')).toMatchObject({ connectionId: { kind: 'param', index: 0 } });
    expect(p('LOCK TABLES t WRITE')).toEqual({ kind: 'noop', what: 'LOCK TABLES', lockTables: [{ table: { name: 't' }, write: true }] });
    expect(p('UNLOCK TABLES')).toEqual({ kind: 'noop', what: 'UNLOCK TABLES' });
    expect(p('ANALYZE TABLE sbtest1')).toEqual({ kind: 'noop', what: 'ANALYZE TABLE' });
    expect(p('FLUSH PRIVILEGES')).toEqual({ kind: 'noop', what: 'FLUSH PRIVILEGES' });
    expect(p('DO 1')).toEqual({ kind: 'noop', what: 'DO', exprs: [{ kind: 'literal', value: 1n }] });
  });
});
