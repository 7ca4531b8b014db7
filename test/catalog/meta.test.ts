import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, findColumn, findIndex } from '../../src/catalog/index.js';
import { metaKey } from '../../src/codec/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { col, key, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();

describe.each(factories)('catalog meta layout and concurrency ($name)', (factory) => {
  let s: TestStore;

  beforeEach(async () => {
    s = await factory.make();
  });
  afterEach(async () => {
    await s.close();
  });

  const get = (k: Uint8Array): Promise<string | undefined> =>
    s.txns.view(async (txn) => {
      const v = await txn.get(k);
      return v === undefined ? undefined : utf8Decode(v);
    });

  it('stores definitions as JSON under the documented meta keys', async () => {
    const cat = await Catalog.open(s.txns);
    expect(await get(metaKey('schemaVersion'))).toBe('1');
    expect(await get(metaKey('nextGlobalId'))).toBe('100');
    await cat.createDatabase('shop', { ifNotExists: false });
    const info = await cat.createTable('shop', spec('t', [col('id', t('int'), { primaryKey: true, autoIncrement: true })], [], { autoIncrementStart: 50n }), false);
    expect(JSON.parse((await get(metaKey('db', 'shop'))) ?? 'null')).toMatchObject({ id: 100, name: 'shop' });
    expect(JSON.parse((await get(metaKey('table', 'shop', 't'))) ?? 'null')).toMatchObject({ id: 101, dbName: 'shop', name: 't' });
    expect(await get(metaKey('autoid', '101'))).toBe('50');
    expect(await get(metaKey('nextGlobalId'))).toBe('102');
    expect(await get(metaKey('schemaVersion'))).toBe('3');
    expect(info === null ? undefined : cat.tableDefKey(info)).toEqual(metaKey('table', 'shop', 't'));
  });

  it('rejects corrupt definitions', async () => {
    const cat = await Catalog.open(s.txns);
    await cat.createDatabase('d', { ifNotExists: false });
    await s.txns.update(async (txn) => {
      txn.put(metaKey('table', 'd', 'bad'), utf8Encode('{"id":"x"}'));
      txn.put(metaKey('schemaVersion'), utf8Encode('99'));
    });
    await expect(cat.latestSchema()).rejects.toThrow(/corrupt catalog metadata/);
  });

  it('serializes concurrent DDL from two catalogs', async () => {
    const a = await Catalog.open(s.txns);
    const b = await Catalog.open(s.txns);
    await a.createDatabase('d', { ifNotExists: false });
    const mk = (c: Catalog, name: string) => c.createTable('d', spec(name, [col('x', t('int'))]), false);
    const results = await Promise.allSettled([mk(a, 'same'), mk(b, 'same'), mk(a, 'p'), mk(b, 'q'), mk(a, 'r'), mk(b, 's')]);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ reason: { errno: 1050 } });
    const schema = await b.latestSchema();
    expect(schema.tables('d').map((x) => x.name)).toEqual(['p', 'q', 'r', 's', 'same']);
    expect(new Set(schema.tables('d').map((x) => x.id)).size).toBe(5);
  });

  it('looks up columns and indexes case-insensitively', async () => {
    const cat = await Catalog.open(s.txns);
    await cat.createDatabase('d', { ifNotExists: false });
    const info = await cat.createTable('d', spec('t', [col('Id', t('int'), { primaryKey: true }), col('Val', t('int'))], [key(['val'], { name: 'ByVal' })]), false);
    if (info === null) throw new Error('not created');
    expect(findColumn(info, 'ID')?.offset).toBe(0);
    expect(findColumn(info, 'val')?.name).toBe('Val');
    expect(findIndex(info, 'byval')?.columns).toEqual([{ offset: 1, name: 'Val' }]);
    expect(findIndex(info, 'primary')?.name).toBe('PRIMARY');
    expect(findColumn(info, 'nope')).toBeUndefined();
  });
});
