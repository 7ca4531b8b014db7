import { beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../exec/harness.js';
import { buildSelect, isReader, rangeText, type PlanNode, type ReaderNode } from '../../../src/sql/plan/index.js';
import { parseStatement, type SelectStmt } from '../../../src/sql/parse/index.js';
import type { Schema } from '../../../src/catalog/index.js';

let schema: Schema;

beforeAll(async () => {
  const db = await Harness.create();
  await db.ddl('CREATE TABLE r (id BIGINT PRIMARY KEY, a INT, b INT, s VARCHAR(10), KEY kab (a, b), UNIQUE KEY us (s))');
  await db.ddl('CREATE TABLE c (x VARCHAR(5), y INT, v INT, PRIMARY KEY (x, y))');
  schema = await db.catalog.latestSchema();
});

function reader(sql: string): ReaderNode {
  let p: PlanNode = buildSelect(parseStatement(sql).stmt as SelectStmt, schema, 'test');
  while ('child' in p) p = p.child;
  if (!isReader(p)) throw new Error('no reader');
  return p;
}

function describePath(sql: string): string {
  const p = reader(sql);
  switch (p.kind) {
    case 'pointGet':
      return `point ${p.index?.name ?? 'handle'}`;
    case 'batchPointGet':
      return `batch ${p.index?.name ?? 'handle'} ${p.keys.length}`;
    case 'tableScan':
      return p.ranges === null ? 'full' : `table ${rangeText(p.ranges)}`;
    case 'indexScan':
      return `${p.covering ? 'reader' : 'lookup'} ${p.index.name} ${rangeText(p.ranges)}`;
  }
}

describe('access paths and ranges', () => {
  it('int handle', () => {
    expect(describePath('SELECT * FROM r WHERE id = 1')).toBe('point handle');
    expect(describePath('SELECT * FROM r WHERE id IN (1, 2)')).toBe('batch handle 2');
    expect(describePath('SELECT * FROM r WHERE id BETWEEN ? AND ?')).toBe('table [?,?]');
    expect(describePath('SELECT * FROM r WHERE id > 5 AND id <= 9')).toBe('table (5,9]');
    expect(describePath('SELECT * FROM r WHERE 3 < id')).toBe('table (3,+inf]');
    expect(describePath('SELECT * FROM r WHERE id < 3 OR id > 9')).toBe('full');
  });

  it('index prefixes, covering and lookups', () => {
    expect(describePath('SELECT id FROM r WHERE a = 1')).toBe('reader kab [1,1]');
    expect(describePath('SELECT id, b FROM r WHERE a = 1 AND b > 2')).toBe('reader kab (1 2,1 +inf]');
    expect(describePath('SELECT s FROM r WHERE a IN (1, 2) AND b = 3')).toBe('lookup kab [1 3,1 3] [2 3,2 3]');
    expect(describePath('SELECT * FROM r WHERE b = 3')).toBe('full');
    expect(describePath('SELECT * FROM r WHERE a IS NULL')).toBe('lookup kab [NULL,NULL]');
    expect(describePath("SELECT * FROM r WHERE s = 'x'")).toBe('point us');
    expect(describePath('SELECT COUNT(*) FROM r WHERE id = 1')).toBe('table [1,1]');
  });

  it('common handle', () => {
    expect(describePath("SELECT v FROM c WHERE x = 'k' AND y = 2")).toBe('point handle');
    expect(describePath("SELECT v FROM c WHERE x = 'k' AND y >= 2")).toBe('table ["k" 2,"k" +inf]');
  });
});
