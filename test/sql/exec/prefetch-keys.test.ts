import { beforeEach, describe, expect, it } from 'vitest';
import { indexColumnTypes, type Schema } from '../../../src/catalog/index.js';
import { indexKey, recordKey } from '../../../src/codec/index.js';
import { compileStatement, prefetchKeys } from '../../../src/sql/exec/index.js';
import { parseStatement } from '../../../src/sql/parse/index.js';
import type { Value } from '../../../src/types/index.js';
import { Harness, SBTEST } from './harness.js';

let db: Harness;
let schema: Schema;

beforeEach(async () => {
  db = await Harness.create();
  await db.ddl(SBTEST);
  await db.ddl('CREATE TABLE u (id INT PRIMARY KEY, email VARCHAR(40) NOT NULL, UNIQUE KEY by_email (email))');
  schema = await db.catalog.latestSchema();
});

const hex = (keys: readonly Uint8Array[]): string[] => keys.map((k) => Buffer.from(k).toString('hex'));
const guess = (sql: string, params: readonly Value[] = []): string[] =>
  hex(prefetchKeys(compileStatement(parseStatement(sql).stmt, schema, 'test').plan, params));
const tableOf = (name: string) => {
  const t = schema.table('test', name);
  if (t === undefined) throw new Error(`no table ${name}`);
  return t;
};
const row = (name: string, id: bigint): string => hex([recordKey(tableOf(name).id, { kind: 'int', value: id })])[0] as string;

describe('prefetchKeys', () => {
  it("guesses the row a point select, UPDATE or DELETE by primary key reads first", () => {
    expect(guess('SELECT c FROM sbtest1 WHERE id=?', [5n])).toEqual([row('sbtest1', 5n)]);
    expect(guess('SELECT c FROM sbtest1 WHERE id=42')).toEqual([row('sbtest1', 42n)]);
    expect(guess("SELECT c FROM sbtest1 WHERE id='7'")).toEqual([row('sbtest1', 7n)]);
    expect(guess('UPDATE sbtest1 SET k=k+1 WHERE id=?', [3n])).toEqual([row('sbtest1', 3n)]);
    expect(guess('UPDATE sbtest1 SET c=? WHERE id=?', ['x', 9n])).toEqual([row('sbtest1', 9n)]);
    expect(guess('DELETE FROM sbtest1 WHERE id=?', [11n])).toEqual([row('sbtest1', 11n)]);
    expect(guess('SELECT c FROM sbtest1 WHERE id=? FOR UPDATE', [2n])).toEqual([row('sbtest1', 2n)]);
  });

  it('guesses every row of a batch point get and the entry of a unique index lookup', () => {
    expect(guess('SELECT c FROM sbtest1 WHERE id IN (?, ?, 8)', [1n, 2n]).sort()).toEqual([row('sbtest1', 1n), row('sbtest1', 2n), row('sbtest1', 8n)].sort());
    const u = tableOf('u');
    const index = u.indexes.find((i) => i.name === 'by_email');
    if (index === undefined) throw new Error('no index by_email');
    const entry = hex([indexKey(u.id, index.id, ['a@b.c'], indexColumnTypes(u, index))])[0];
    expect(guess('SELECT id FROM u WHERE email=?', ['a@b.c'])).toEqual([entry]);
  });

  it('guesses nothing it would have to compute or that cannot match', () => {
    expect(guess('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?', [1n, 5n])).toEqual([]);
    expect(guess('SELECT c FROM sbtest1 WHERE id=?+1', [5n])).toEqual([]);
    expect(guess('SELECT c FROM sbtest1 WHERE id=?', [])).toEqual([]); // parameter not bound
    expect(guess('SELECT c FROM sbtest1 WHERE id=?', [5.5])).toEqual([]); // no integer id equals 5.5
    expect(guess('INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, 1, "c", "p")', [5n])).toEqual([]);
    expect(guess('SELECT 1')).toEqual([]);
  });
});
