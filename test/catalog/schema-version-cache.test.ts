import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, SCHEMA_VERSION_KEY } from '../../src/catalog/index.js';
import type { Txn } from '../../src/txn/index.js';
import { bytesEqual, utf8Encode } from '../../src/util/index.js';
import { col, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();

/** `txn` with its reads of the schema version key counted. */
function counting(txn: Txn): { txn: Txn; versionReads: () => number } {
  let reads = 0;
  const proxy = new Proxy(txn, {
    get(target, prop, receiver) {
      if (prop === 'get') {
        return (key: Uint8Array) => {
          if (bytesEqual(key, SCHEMA_VERSION_KEY)) reads++;
          return target.get(key);
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { txn: proxy, versionReads: () => reads };
}

describe.each(factories)('schema version per snapshot timestamp ($name)', (factory) => {
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

  it('reads the version key once per snapshot timestamp and again after a DDL', async () => {
    const a = counting(await s.txns.begin());
    const b = counting(await s.txns.begin());
    expect(b.txn.startTs).toBe(a.txn.startTs);
    const first = await cat.schemaFor(a.txn);
    expect(await cat.schemaFor(a.txn)).toBe(first);
    expect(await cat.schemaFor(b.txn)).toBe(first);
    expect(a.versionReads() + b.versionReads()).toBe(1);
    a.txn.rollback();
    b.txn.rollback();

    await cat.createTable('d', spec('t', [col('id', t('int'), { primaryKey: true })]), false);
    const c = counting(await s.txns.begin());
    expect(c.txn.startTs).not.toBe(a.txn.startTs);
    const after = await cat.schemaFor(c.txn);
    expect(c.versionReads()).toBe(1);
    expect(after.version).toBeGreaterThan(first.version);
    expect(after.table('d', 't')).toBeDefined();
    c.txn.rollback();
  });

  it('cachedSchemaFor answers without a read only for the timestamp last read, and never for a writer', async () => {
    const a = await s.txns.begin();
    expect(cat.cachedSchemaFor(a)).toBeUndefined();
    const first = await cat.schemaFor(a);
    expect(cat.cachedSchemaFor(a)).toBe(first);
    a.put(utf8Encode('x'), utf8Encode('y'));
    expect(cat.cachedSchemaFor(a)).toBeUndefined();
    a.rollback();

    await cat.createTable('d', spec('t2', [col('id', t('int'), { primaryKey: true })]), false);
    const b = await s.txns.begin();
    expect(cat.cachedSchemaFor(b)).toBeUndefined(); // a later timestamp: the version must be read
    const after = await cat.schemaFor(b);
    expect(after.version).toBeGreaterThan(first.version);
    expect(cat.cachedSchemaFor(b)).toBe(after);
    b.rollback();
  });

  it('a transaction with writes reads the key itself, and sees a version it wrote', async () => {
    const plain = await s.txns.begin();
    const base = await cat.schemaFor(plain);
    plain.rollback();
    const w = counting(await s.txns.begin());
    w.txn.put(SCHEMA_VERSION_KEY, utf8Encode((base.version + 7n).toString()));
    expect((await cat.schemaFor(w.txn)).version).toBe(base.version + 7n);
    await cat.schemaFor(w.txn);
    expect(w.versionReads()).toBe(2);
    w.txn.rollback();
    const again = await s.txns.begin();
    expect((await cat.schemaFor(again)).version).toBe(base.version);
    again.rollback();
  });

  it('cachedSchemaFor reads the version without a promise where the store can, at every new timestamp', async () => {
    const a = await s.txns.begin();
    const first = await cat.schemaFor(a);
    a.rollback();
    // Another catalog (another process) changes the schema; a later snapshot must see it.
    const other = await Catalog.open(s.txns);
    await other.createTable('d', spec('t3', [col('id', t('int'), { primaryKey: true })]), false);
    const b = await s.txns.begin();
    expect(b.startTs).not.toBe(a.startTs);
    const syncReads = b.getNow(SCHEMA_VERSION_KEY) !== null;
    // The new version is not cached in this catalog yet: no answer without loading it.
    expect(cat.cachedSchemaFor(b)).toBeUndefined();
    const after = await cat.schemaFor(b);
    expect(after.version).toBeGreaterThan(first.version);
    expect(after.table('d', 't3')).toBeDefined();
    b.rollback();
    // A commit elsewhere moves the timestamp on without a DDL: the cached schema still answers
    // at once where the store reads synchronously (the embedded store), else after a read.
    const w = await s.txns.begin();
    w.put(utf8Encode('unrelated'), utf8Encode('1'));
    await w.commit();
    const c = await s.txns.begin();
    expect(c.startTs).not.toBe(b.startTs);
    expect(cat.cachedSchemaFor(c)).toBe(syncReads ? after : undefined);
    expect(await cat.schemaFor(c)).toBe(after);
    c.rollback();
  });
});
