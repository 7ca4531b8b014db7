/**
 * Which of a row write's keys TableWriter sends as derived (no conflict check, a delete without a
 * tombstone: kv.ts Mutation): the entries of public indexes that name the row's handle (non-unique,
 * or unique with a NULL), never the record key, a distinct unique entry or a writeOnly index's entry
 * (the backfill relies on conflicts on those).
 */
import { describe, expect, it } from 'vitest';
import { Catalog, indexEntry, indexValues, recordKeyOf, type TableInfo } from '../../../src/catalog/index.js';
import type { Handle } from '../../../src/codec/index.js';
import { TableWriter } from '../../../src/sql/exec/table-writer.js';
import type { Txn } from '../../../src/txn/index.js';
import type { Value } from '../../../src/types/index.js';
import { toHex } from '../../../src/util/index.js';
import { col, key, spec, storeFactories, t } from '../../catalog/helpers.js';

/** The puts and deletes a writer makes, labelled by `names` (key hex -> name), and whether each was derived. */
class Recorder {
  readonly writes: string[] = [];
  constructor(private readonly names: Map<string, string>) {}
  put(k: Uint8Array, _v: Uint8Array, derived = false): void {
    this.writes.push(`put ${this.name(k)}${derived ? ' derived' : ''}`);
  }
  delete(k: Uint8Array, derived = false): void {
    this.writes.push(`del ${this.name(k)}${derived ? ' derived' : ''}`);
  }
  get(): Promise<Uint8Array | undefined> {
    return Promise.resolve(undefined);
  }
  private name(k: Uint8Array): string {
    return this.names.get(toHex(k)) ?? `unknown ${toHex(k)}`;
  }
}

async function table(): Promise<TableInfo> {
  const [factory] = await storeFactories();
  if (factory === undefined) throw new Error('no store');
  const s = await factory.make();
  const cat = await Catalog.open(s.txns);
  await cat.createDatabase('d', { ifNotExists: false });
  const cols = [col('id', t('int'), { primaryKey: true }), col('k', t('int')), col('u', t('int')), col('w', t('int'))];
  const info = await cat.createTable('d', spec('t', cols, [key(['k'], { name: 'kk' }), key(['u'], { name: 'uu', unique: true }), key(['w'], { name: 'ww' })]), false);
  await s.close();
  if (info === null) throw new Error('not created');
  // ww as a CREATE INDEX leaves it while it backfills.
  return { ...info, indexes: info.indexes.map((ix) => (ix.name === 'ww' ? { ...ix, state: 'writeOnly' as const } : ix)) };
}

/** Names the record key and every index entry of each row: "row1", "kk(5)@1" (index, values, handle). */
function names(info: TableInfo, rows: ReadonlyArray<readonly Value[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of rows) {
    const h: Handle = { kind: 'int', value: row[0] as bigint };
    out.set(toHex(recordKeyOf(info, h)), `row${String(h.value)}`);
    for (const ix of info.indexes) {
      if (!ix.primary) out.set(toHex(indexEntry(info, ix, row, h).key), `${ix.name}(${indexValues(ix, row).map(String).join(',')})@${String(h.value)}`);
    }
  }
  return out;
}

describe('TableWriter: derived index entries', () => {
  it('marks the handle-naming entries of public indexes only, on insert, delete and update', async () => {
    const info = await table();
    const w = new TableWriter(info);
    const r1: Value[] = [1n, 5n, 7n, 9n];
    const r2: Value[] = [2n, 5n, null, 9n];
    const r1b: Value[] = [1n, 6n, 8n, 9n];
    const rec = new Recorder(names(info, [r1, r2, r1b]));
    const txn = rec as unknown as Txn;
    const h = (v: bigint): Handle => ({ kind: 'int', value: v });
    w.insert(txn, r1, h(1n));
    w.insert(txn, r2, h(2n));
    const taken = (): string[] => rec.writes.splice(0).sort();
    expect(taken()).toEqual([
      'put kk(5)@1 derived', 'put kk(5)@2 derived', 'put row1', 'put row2',
      'put uu(7)@1', 'put uu(null)@2 derived', 'put ww(9)@1', 'put ww(9)@2',
    ]);
    await w.update(txn, r1, h(1n), r1b, h(1n));
    expect(taken()).toEqual(['del kk(5)@1 derived', 'del uu(7)@1', 'put kk(6)@1 derived', 'put row1', 'put uu(8)@1']);
    w.delete(txn, r2, h(2n));
    expect(taken()).toEqual(['del kk(5)@2 derived', 'del row2', 'del uu(null)@2 derived', 'del ww(9)@2']);
  });
});
