import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, encodeRecordValue, recordKeyOf, rowHandle, type TableInfo } from '../../src/catalog/index.js';
import { tablePrefix } from '../../src/codec/index.js';
import { prefixEnd } from '../../src/util/index.js';
import { col, expectSqlError, key, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();

describe.each(factories)('catalog DDL ($name)', (factory) => {
  let s: TestStore;
  let cat: Catalog;

  beforeEach(async () => {
    s = await factory.make();
    cat = await Catalog.open(s.txns);
    await cat.createDatabase('d', { ifNotExists: false });
  });
  afterEach(async () => {
    await s.close();
  });

  const simple = spec('t', [col('id', t('int'), { primaryKey: true }), col('name', t('varchar', { length: 20 }))]);

  async function tableOf(c: Catalog, db: string, name: string): Promise<TableInfo> {
    const info = (await c.latestSchema()).table(db, name);
    if (info === undefined) throw new Error(`no table ${db}.${name}`);
    return info;
  }

  async function liveKeys(tableId: number): Promise<number> {
    return s.txns.view(async (txn) => {
      const p = tablePrefix(tableId);
      return (await txn.scan({ start: p, end: prefixEnd(p) }, { limit: 100000 })).length;
    });
  }

  async function insertRows(info: TableInfo, rows: Array<Array<bigint | string | null>>): Promise<void> {
    await s.txns.update(async (txn) => {
      for (const row of rows) txn.put(recordKeyOf(info, rowHandle(info, row)), encodeRecordValue(info, row));
    });
  }

  it('persists databases and tables across Catalog instances', async () => {
    await cat.createDatabase('e', { ifNotExists: false, charset: 'latin1' });
    const created = await cat.createTable('d', simple, false);
    const other = await Catalog.open(s.txns);
    const schema = await other.latestSchema();
    expect(schema.databases().map((d) => d.name)).toEqual(['d', 'e']);
    expect(schema.database('e')).toMatchObject({ charset: 'latin1', collation: 'latin1_swedish_ci' });
    expect(schema.database('d')).toMatchObject({ charset: 'utf8mb4', collation: 'utf8mb4_0900_ai_ci' });
    expect(schema.table('d', 't')).toEqual(created);
    expect(schema.tables('d').map((x) => x.name)).toEqual(['t']);
    expect(schema.table('d', 'T')).toBeUndefined(); // table names are case-sensitive
    expect(schema.database('D')).toBeUndefined();
    expect(Object.isFrozen(schema.table('d', 't'))).toBe(true);
  });

  it('assigns never-reused table ids from the global counter', async () => {
    const a = await cat.createTable('d', spec('a', [col('x', t('int'))]), false);
    await cat.dropTable('d', 'a', false);
    const b = await cat.createTable('d', spec('a', [col('x', t('int'))]), false);
    expect(a?.id).toBeGreaterThanOrEqual(100);
    expect(b?.id).toBeGreaterThan(a?.id ?? Infinity);
  });

  it('reports database errors', async () => {
    await expectSqlError(cat.createDatabase('d', { ifNotExists: false }), 1007, "Can't create database 'd'; database exists");
    await cat.createDatabase('d', { ifNotExists: true });
    await expectSqlError(cat.dropDatabase('nope', false), 1008, "Can't drop database 'nope'; database doesn't exist");
    await cat.dropDatabase('nope', true);
    await expectSqlError(cat.createTable('nodb', simple, false), 1049, "Unknown database 'nodb'");
  });

  it('drops a database with its tables and their data', async () => {
    const info = await cat.createTable('d', simple, false);
    if (info === null) throw new Error('not created');
    await insertRows(info, [[1n, 'a'], [2n, 'b']]);
    expect(await liveKeys(info.id)).toBe(2);
    await cat.dropDatabase('d', false);
    const schema = await cat.latestSchema();
    expect(schema.database('d')).toBeUndefined();
    expect(schema.tables('d')).toEqual([]);
    expect(await liveKeys(info.id)).toBe(0);
    await cat.createDatabase('d', { ifNotExists: false });
    expect((await cat.latestSchema()).tables('d')).toEqual([]);
  });

  it('reports 1050 unless IF NOT EXISTS', async () => {
    await cat.createTable('d', simple, false);
    await expectSqlError(cat.createTable('d', simple, false), 1050, "Table 't' already exists");
    expect(await cat.createTable('d', simple, true)).toBeNull();
  });

  it('validates table definitions with MySQL errors', async () => {
    const c = (n: string, extra = {}) => col(n, t('int'), extra);
    await expectSqlError(cat.createTable('d', spec('x', [c('a'), c('A')]), false), 1060, "Duplicate column name 'A'");
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a'), c('b')], [key(['a'], { name: 'k' }), key(['b'], { name: 'K' })]), false),
      1061,
      "Duplicate key name 'K'",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a', { primaryKey: true }), c('b')], [key(['b'], { primary: true })]), false),
      1068,
      'Multiple primary key defined',
    );
    await expectSqlError(cat.createTable('d', spec('x', [c('a')], [key(['zz'])]), false), 1072, "Key column 'zz' doesn't exist in table");
    const autoMsg = 'Incorrect table definition; there can be only one auto column and it must be defined as a key';
    await expectSqlError(cat.createTable('d', spec('x', [c('a', { autoIncrement: true })]), false), 1075, autoMsg);
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a', { autoIncrement: true, primaryKey: true }), c('b', { autoIncrement: true, unique: true })]), false),
      1075,
      autoMsg,
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a'), c('b', { autoIncrement: true })], [key(['a', 'b'])]), false),
      1075,
      autoMsg,
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a'), col('b', t('text'))], [key(['a', 'b'])]), false),
      1170,
      "BLOB/TEXT column 'b' used in key specification without a key length",
    );
    await expectSqlError(cat.createTable('d', spec('x', []), false), 1113, 'A table must have at least 1 column');
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a', { notNull: true, default: { kind: 'null' } })]), false),
      1067,
      "Invalid default value for 'a'",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [c('a', { default: { kind: 'literal', text: 'abc' } })]), false),
      1067,
      "Invalid default value for 'a'",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [col('a', t('tinyint'), { default: { kind: 'literal', text: '300' } })]), false),
      1067,
      "Invalid default value for 'a'",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [col('a', t('varchar', { length: 2 }), { default: { kind: 'literal', text: 'abc' } })]), false),
      1067,
      "Invalid default value for 'a'",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [col('a', t('int'), { default: { kind: 'now', fsp: 0 } })]), false),
      1067,
      "Invalid default value for 'a'",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [col('a', t('blob'), { default: { kind: 'literal', text: 'x' } })]), false),
      1101,
      "BLOB, TEXT, GEOMETRY or JSON column 'a' can't have a default value",
    );
    await expectSqlError(
      cat.createTable('d', spec('x', [col('a', t('varchar', { length: 3 }), { autoIncrement: true, primaryKey: true })]), false),
      1063,
      "Incorrect column specifier for column 'a'",
    );
    expect((await cat.latestSchema()).tables('d')).toEqual([]);
  });

  it('accepts valid defaults', async () => {
    const info = await cat.createTable(
      'd',
      spec('x', [
        col('a', t('int'), { default: { kind: 'literal', text: '-5' } }),
        col('b', t('decimal', { length: 5, scale: 2 }), { default: { kind: 'literal', text: '2.5' } }),
        col('c', t('datetime', { scale: 3 }), { default: { kind: 'now', fsp: 3 } }),
        col('e', t('date'), { default: { kind: 'literal', text: '2024-02-29' } }),
        col('f', t('text'), { default: { kind: 'null' } }),
      ]),
      false,
    );
    expect(info?.columns.map((x) => x.default.kind)).toEqual(['literal', 'literal', 'now', 'literal', 'null']);
  });

  it('makes primary key columns NOT NULL silently', async () => {
    const info = await cat.createTable('d', spec('x', [col('a', t('int')), col('b', t('int'))], [key(['a', 'b'], { primary: true })]), false);
    expect(info?.columns.map((x) => x.notNull)).toEqual([true, true]);
  });

  it('names and orders indexes like MySQL', async () => {
    const info = await cat.createTable(
      'd',
      spec(
        'x',
        [col('id', t('int'), { primaryKey: true }), col('a', t('int')), col('b', t('int'), { unique: true }), col('c', t('int'), { notNull: true })],
        [key(['a']), key(['a']), key(['a', 'b'], { unique: true }), key(['c'], { unique: true, name: 'uc' }), key(['b'])],
      ),
      false,
    );
    expect(info?.indexes.map((ix) => ix.name)).toEqual(['PRIMARY', 'uc', 'b', 'a_3', 'a', 'a_2', 'b_2']);
    expect(info?.indexes.map((ix) => ix.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(info?.indexes.map((ix) => ix.unique)).toEqual([true, true, true, true, false, false, false]);
    expect(info?.indexes.every((ix) => ix.state === 'public')).toBe(true);
    expect(info?.maxIndexId).toBe(7);
    expect(info?.maxColumnId).toBe(4);
    expect(info?.columns.map((c) => c.id)).toEqual([1, 2, 3, 4]);
  });

  it('decides the handle kind', async () => {
    const mk = async (name: string, cols: Parameters<typeof spec>[1], idx: Parameters<typeof spec>[2] = []) => {
      const info = await cat.createTable('d', spec(name, cols, idx), false);
      return [info?.pkIsHandle, info?.handleKind];
    };
    expect(await mk('i', [col('id', t('bigint'), { primaryKey: true })])).toEqual([true, 'int']);
    expect(await mk('u', [col('id', t('int', { unsigned: true }), { primaryKey: true })])).toEqual([true, 'int']);
    expect(await mk('ub', [col('id', t('bigint', { unsigned: true }), { primaryKey: true })])).toEqual([false, 'common']);
    expect(await mk('s', [col('id', t('varchar', { length: 10 }), { primaryKey: true })])).toEqual([false, 'common']);
    expect(await mk('c', [col('a', t('int')), col('b', t('int'))], [key(['a', 'b'], { primary: true })])).toEqual([false, 'common']);
    expect(await mk('n', [col('a', t('int'), { unique: true })])).toEqual([false, 'int']);
  });

  it('records the auto-increment offset', async () => {
    const info = await cat.createTable('d', spec('x', [col('a', t('int')), col('id', t('bigint'), { autoIncrement: true, primaryKey: true })]), false);
    expect(info?.autoIncrementOffset).toBe(1);
    const none = await cat.createTable('d', spec('y', [col('a', t('int'))]), false);
    expect(none?.autoIncrementOffset).toBe(-1);
  });

  it('bumps the schema version on every DDL', async () => {
    const v0 = (await cat.latestSchema()).version;
    await cat.createTable('d', simple, false);
    const v1 = (await cat.latestSchema()).version;
    expect(v1).toBe(v0 + 1n);
    await cat.createIndex('d', 't', { name: 'n', columns: [{ name: 'name' }], unique: false, primary: false }, false);
    const v2 = (await cat.latestSchema()).version;
    expect(v2).toBe(v1 + 2n); // writeOnly, then public
    await cat.dropTable('d', 't', false);
    expect((await cat.latestSchema()).version).toBe(v2 + 1n);
  });

  it('caches schemas per version and reloads across catalogs', async () => {
    const other = await Catalog.open(s.txns);
    const a1 = await other.latestSchema();
    expect(await other.latestSchema()).toBe(a1);
    const oldTxn = await s.txns.begin();
    await cat.createTable('d', simple, false);
    const a2 = await other.latestSchema();
    expect(a2).not.toBe(a1);
    expect(a2.version).toBe(a1.version + 1n);
    expect(a2.table('d', 't')).toBeDefined();
    const fromOld = await other.schemaFor(oldTxn);
    expect(fromOld.version).toBe(a1.version);
    expect(fromOld.table('d', 't')).toBeUndefined();
    oldTxn.rollback();
  });

  it('makes writers that locked the table definition conflict with DDL', async () => {
    const info = await cat.createTable('d', simple, false);
    if (info === null) throw new Error('not created');
    const txn = await s.txns.begin();
    txn.lockKeys([cat.tableDefKey(info)]);
    txn.put(recordKeyOf(info, rowHandle(info, [1n, 'x'])), encodeRecordValue(info, [1n, 'x']));
    await cat.createIndex('d', 't', { name: 'n', columns: [{ name: 'name' }], unique: false, primary: false }, false);
    await expect(txn.commit()).rejects.toMatchObject({ errno: 1213 });
  });

  it('drops tables and their data', async () => {
    const info = await cat.createTable('d', simple, false);
    if (info === null) throw new Error('not created');
    await insertRows(info, [[1n, 'a']]);
    await expectSqlError(cat.dropTable('d', 'nope', false), 1051, "Unknown table 'd.nope'");
    await cat.dropTable('d', 'nope', true);
    await cat.dropTable('d', 't', false);
    expect((await cat.latestSchema()).table('d', 't')).toBeUndefined();
    expect(await liveKeys(info.id)).toBe(0);
  });

  it('truncates with a new table id and a fresh AUTO_INCREMENT', async () => {
    const info = await cat.createTable('d', spec('x', [col('id', t('int'), { primaryKey: true, autoIncrement: true })]), false);
    if (info === null) throw new Error('not created');
    expect(await cat.allocAutoId(info, 3)).toBe(1n);
    await insertRows(info, [[1n], [2n], [3n]]);
    await cat.truncateTable('d', 'x');
    const fresh = await tableOf(cat, 'd', 'x');
    expect(fresh.id).not.toBe(info.id);
    expect(fresh.columns).toEqual(info.columns);
    expect(await liveKeys(info.id)).toBe(0);
    expect(await cat.allocAutoId(fresh, 1)).toBe(1n);
    await expectSqlError(cat.truncateTable('d', 'nope'), 1146, "Table 'd.nope' doesn't exist");
  });
});
