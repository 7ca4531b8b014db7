/** Statements mysqldump emits that ShaleDB accepts and ignores. */
import { describe, expect, it } from 'vitest';
import { parseStatement, type Statement } from '../../../src/sql/parse/index.js';

const p = (sql: string): Statement => parseStatement(sql).stmt;

describe('mysqldump no-ops', () => {
  it('ALTER TABLE t DISABLE/ENABLE KEYS, also inside a conditional comment', () => {
    expect(p('/*!40000 ALTER TABLE `t` DISABLE KEYS */')).toEqual({ kind: 'noop', what: 'ALTER TABLE DISABLE KEYS' });
    expect(p('ALTER TABLE db.t ENABLE KEYS')).toEqual({ kind: 'noop', what: 'ALTER TABLE ENABLE KEYS' });
    expect(p('alter table `d`.`t` enable keys;')).toEqual({ kind: 'noop', what: 'ALTER TABLE ENABLE KEYS' });
  });

  it('leaves every other ALTER TABLE to the ALTER parser', () => {
    for (const sql of ['ALTER TABLE t ADD COLUMN keys INT', 'ALTER TABLE t DISABLE KEYS, ADD INDEX (a)', 'ALTER TABLE DISABLE KEYS']) {
      const r = (() => {
        try {
          return p(sql).kind;
        } catch {
          return 'error';
        }
      })();
      expect(r, sql).not.toBe('noop');
    }
  });

  it('LOCK TABLES … WRITE and UNLOCK TABLES stay no-ops', () => {
    expect(p('LOCK TABLES `t` WRITE')).toEqual({ kind: 'noop', what: 'LOCK TABLES', lockTables: [{ table: { name: 't' }, write: true }] });
    expect(p('UNLOCK TABLES')).toEqual({ kind: 'noop', what: 'UNLOCK TABLES' });
  });
});
