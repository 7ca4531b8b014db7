import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, type TableInfo } from '../../src/catalog/index.js';
import { col, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();

describe.each(factories)('AUTO_INCREMENT allocation ($name)', (factory) => {
  let s: TestStore;

  beforeEach(async () => {
    s = await factory.make();
  });
  afterEach(async () => {
    await s.close();
  });

  async function setup(step = 10, start?: bigint): Promise<{ cat: Catalog; info: TableInfo }> {
    const cat = await Catalog.open(s.txns, { autoIdStep: step });
    await cat.createDatabase('d', { ifNotExists: true });
    const tspec = spec('t', [col('id', t('bigint'), { primaryKey: true, autoIncrement: true })], [], start === undefined ? {} : { autoIncrementStart: start });
    const info = await cat.createTable('d', tspec, false);
    if (info === null) throw new Error('not created');
    return { cat, info };
  }

  it('hands out consecutive ids starting at 1', async () => {
    const { cat, info } = await setup();
    expect(await cat.allocAutoId(info, 1)).toBe(1n);
    expect(await cat.allocAutoId(info, 3)).toBe(2n);
    expect(await cat.allocAutoId(info, 1)).toBe(5n);
  });

  it('starts at AUTO_INCREMENT=N', async () => {
    const { cat, info } = await setup(10, 500n);
    expect(await cat.allocAutoId(info, 2)).toBe(500n);
  });

  it('keeps a multi-id allocation consecutive across block boundaries', async () => {
    const { cat, info } = await setup(10);
    expect(await cat.allocAutoId(info, 2)).toBe(1n); // block [1,11)
    expect(await cat.allocAutoId(info, 5)).toBe(3n);
    expect(await cat.allocAutoId(info, 8)).toBe(8n); // 8..10 left: extended by [11,43) (4 x 8)
    expect(await cat.allocAutoId(info, 1)).toBe(16n);
    expect(await cat.allocAutoId(info, 100)).toBe(17n); // 17..42 left: extended by 400 ids
    expect(await cat.allocAutoId(info, 1)).toBe(117n);
  });

  it('abandons the rest of a block when another process reserved after it', async () => {
    const { cat, info } = await setup(10);
    const other = await Catalog.open(s.txns, { autoIdStep: 10 });
    expect(await cat.allocAutoId(info, 8)).toBe(1n); // block [1,33)
    expect(await other.allocAutoId(info, 1)).toBe(33n); // other's block [33,43)
    expect(await cat.allocAutoId(info, 30)).toBe(43n); // 9..32 abandoned: fresh block [43,163)
    expect(await other.allocAutoId(info, 1)).toBe(34n);
  });

  it('bulk allocations of thousands of ids stay gapless over many statements', async () => {
    const { cat, info } = await setup(1000);
    let expected = 1n;
    for (const n of [2716, 2716, 2700, 2716, 1000, 2716, 2224, 1, 5000]) {
      expect(await cat.allocAutoId(info, n)).toBe(expected);
      expected += BigInt(n);
    }
  });

  it('never overlaps under concurrency, within and across catalogs', async () => {
    const { cat, info } = await setup(7);
    const other = await Catalog.open(s.txns, { autoIdStep: 5 });
    const calls: Array<Promise<{ first: bigint; n: number }>> = [];
    for (let i = 0; i < 60; i++) {
      const n = (i % 4) + 1;
      const c = i % 3 === 0 ? other : cat;
      calls.push(c.allocAutoId(info, n).then((first) => ({ first, n })));
    }
    const got = await Promise.all(calls);
    const seen = new Set<bigint>();
    for (const { first, n } of got) {
      for (let k = 0n; k < BigInt(n); k++) {
        expect(seen.has(first + k)).toBe(false);
        seen.add(first + k);
      }
    }
    expect(seen.size).toBe(got.reduce((a, g) => a + g.n, 0));
  });

  it('rebases above explicit values', async () => {
    const { cat, info } = await setup(10);
    expect(await cat.allocAutoId(info, 1)).toBe(1n);
    await cat.rebaseAutoId(info, 5n); // inside the cached block
    expect(await cat.allocAutoId(info, 1)).toBe(6n);
    await cat.rebaseAutoId(info, 3n); // below: no effect
    expect(await cat.allocAutoId(info, 1)).toBe(7n);
    await cat.rebaseAutoId(info, 100n); // beyond the block: persisted
    expect(await cat.allocAutoId(info, 1)).toBe(101n);
    const other = await Catalog.open(s.txns, { autoIdStep: 10 });
    expect(await other.allocAutoId(info, 1)).toBeGreaterThan(101n);
  });

  it('persists rebases for other processes even without a cached block', async () => {
    const { info } = await setup(10);
    const a = await Catalog.open(s.txns, { autoIdStep: 10 });
    await a.rebaseAutoId(info, 1000n);
    const b = await Catalog.open(s.txns, { autoIdStep: 10 });
    expect(await b.allocAutoId(info, 1)).toBeGreaterThan(1000n);
    expect(await a.allocAutoId(info, 1)).toBe(1001n);
  });

  it('gives ids unique across restarts (with a gap)', async () => {
    const { cat, info } = await setup(10);
    expect(await cat.allocAutoId(info, 2)).toBe(1n);
    const restarted = await Catalog.open(s.txns, { autoIdStep: 10 });
    expect(await restarted.allocAutoId(info, 1)).toBe(11n);
  });
});
