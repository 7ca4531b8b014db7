import { describe, expect, it } from 'vitest';
import { parseStatement, type AlterTableStmt, type CreateTableStmt, type Statement } from '../../../src/sql/parse/index.js';

const p = (sql: string): Statement => parseStatement(sql).stmt;
const alter = (sql: string): AlterTableStmt => {
  const s = p(sql);
  if (s.kind !== 'alterTable') throw new Error(s.kind);
  return s;
};
const ct = (sql: string): CreateTableStmt => {
  const s = p(sql);
  if (s.kind !== 'createTable') throw new Error(s.kind);
  return s;
};

describe('ALTER TABLE parser', () => {
  it('several operations in one statement', () => {
    const s = alter('ALTER TABLE db.t ADD COLUMN a INT FIRST, ADD b INT AFTER a, DROP COLUMN c, MODIFY d BIGINT NOT NULL, CHANGE e f VARCHAR(5), RENAME COLUMN g TO h, ALTER COLUMN i SET DEFAULT 3, ALTER j DROP DEFAULT');
    expect(s.table).toEqual({ db: 'db', name: 't' });
    expect(s.ops.map((o) => o.op)).toEqual(['addColumn', 'addColumn', 'dropColumn', 'modifyColumn', 'modifyColumn', 'renameColumn', 'setDefault', 'setDefault']);
    expect(s.ops[0]).toMatchObject({ op: 'addColumn', column: { name: 'a' }, position: { first: true } });
    expect(s.ops[1]).toMatchObject({ position: { after: 'a' } });
    expect(s.ops[4]).toMatchObject({ op: 'modifyColumn', from: 'e', column: { name: 'f' } });
    expect(s.ops[7]).toEqual({ op: 'setDefault', name: 'j' });
  });

  it('ADD COLUMN (a, b), indexes, keys and constraints', () => {
    const s = alter('ALTER TABLE t ADD (x INT, y INT), ADD INDEX ix (x), ADD UNIQUE KEY (y), ADD PRIMARY KEY (x), ADD CONSTRAINT fk FOREIGN KEY (y) REFERENCES p (id) ON DELETE CASCADE, ADD CHECK (x > 0), ADD CONSTRAINT c1 CHECK (y < 5) NOT ENFORCED');
    expect(s.ops.map((o) => o.op)).toEqual(['addColumn', 'addColumn', 'addIndex', 'addIndex', 'addIndex', 'addForeignKey', 'addCheck', 'addCheck']);
    expect(s.ops[5]).toMatchObject({ fk: { name: 'fk', columns: ['y'], refTable: { name: 'p' }, refColumns: ['id'], onDelete: 'CASCADE' } });
    expect(s.ops[6]).toEqual({ op: 'addCheck', check: { expr: 'x > 0', enforced: true } });
    expect(s.ops[7]).toEqual({ op: 'addCheck', check: { name: 'c1', expr: 'y < 5', enforced: false } });
  });

  it('drops, renames and table options', () => {
    const s = alter("ALTER TABLE t DROP INDEX a, DROP KEY b, DROP PRIMARY KEY, DROP FOREIGN KEY f, DROP CHECK c, DROP CONSTRAINT d, RENAME INDEX x TO y, RENAME TO u, AUTO_INCREMENT = 5, COMMENT = 'hi', ENGINE = InnoDB, ALGORITHM = INPLACE, LOCK = NONE");
    expect(s.ops.map((o) => o.op)).toEqual([
      'dropIndex', 'dropIndex', 'dropPrimaryKey', 'dropForeignKey', 'dropConstraint', 'dropConstraint', 'renameIndex', 'renameTable', 'options', 'options', 'options',
    ]);
    expect(s.ops[8]).toEqual({ op: 'options', options: { AUTO_INCREMENT: '5' } });
    expect(s.ops[9]).toEqual({ op: 'options', options: { COMMENT: 'hi' } });
  });

  it('options without commas, and unsupported clauses', () => {
    expect(alter('ALTER TABLE t ENGINE=InnoDB DEFAULT CHARSET=utf8mb4').ops).toEqual([{ op: 'options', options: { ENGINE: 'InnoDB', 'DEFAULT CHARSET': 'utf8mb4' } }]);
    expect(() => p('ALTER TABLE t ORDER BY a')).toThrow(/doesn't yet support/);
    expect(alter('ALTER TABLE t CONVERT TO CHARACTER SET UTF8MB4 COLLATE utf8mb4_bin').ops).toEqual([{ op: 'convertCharset', charset: 'utf8mb4', collation: 'utf8mb4_bin' }]);
    expect(() => p('ALTER TABLE t DISCARD TABLESPACE')).toThrow(/doesn't yet support/);
    expect(() => p('ALTER TABLE t ADD')).toThrow(/syntax/);
    expect(() => p('ALTER DATABASE d CHARSET latin1')).toThrow(/doesn't yet support/);
  });

  it('RENAME TABLE pairs', () => {
    expect(p('RENAME TABLE a TO b, d1.c TO d2.c')).toEqual({
      kind: 'renameTable',
      pairs: [{ from: { name: 'a' }, to: { name: 'b' } }, { from: { db: 'd1', name: 'c' }, to: { db: 'd2', name: 'c' } }],
    });
  });
});

describe('CREATE TABLE constraints', () => {
  it('inline REFERENCES and CHECK become table constraints', () => {
    const s = ct('CREATE TABLE t (a INT REFERENCES p (id) ON UPDATE SET NULL, b INT CHECK (b > 0) CONSTRAINT named CHECK (b < 9), CHECK (a <> b), FOREIGN KEY ix (b) REFERENCES q (k))');
    expect(s.foreignKeys).toEqual([
      { columns: ['a'], refTable: { name: 'p' }, refColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'SET NULL' },
      { indexName: 'ix', columns: ['b'], refTable: { name: 'q' }, refColumns: ['k'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
    ]);
    expect(s.checks).toEqual([
      { expr: 'b > 0', enforced: true },
      { name: 'named', expr: 'b < 9', enforced: true },
      { expr: 'a <> b', enforced: true },
    ]);
  });

  it('CREATE TABLE ... SELECT', () => {
    expect(ct('CREATE TABLE t AS SELECT a FROM s')).toMatchObject({ columns: [], select: { kind: 'select' } });
    expect(ct('CREATE TABLE t (x INT) ENGINE=InnoDB IGNORE SELECT a FROM s')).toMatchObject({ columns: [{ name: 'x' }], selectMode: 'ignore', select: { kind: 'select' } });
    expect(ct('CREATE TABLE t SELECT 1')).toMatchObject({ select: { kind: 'select' } });
  });

  it('CREATE TABLE ... LIKE', () => {
    expect(ct('CREATE TABLE IF NOT EXISTS t LIKE d.s')).toMatchObject({ ifNotExists: true, like: { db: 'd', name: 's' }, columns: [] });
  });
});
