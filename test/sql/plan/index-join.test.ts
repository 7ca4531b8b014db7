import { beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../exec/harness.js';
import { buildSelect, planSummary, type PlanNode } from '../../../src/sql/plan/index.js';
import { parseStatement, type SelectStmt } from '../../../src/sql/parse/index.js';
import type { Schema } from '../../../src/catalog/index.js';

let schema: Schema;

beforeAll(async () => {
  const db = await Harness.create();
  await db.ddl('CREATE TABLE o (id INT PRIMARY KEY, cid INT, s VARCHAR(5), KEY kc (cid))');
  await db.ddl('CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(5), n INT, KEY kn (name, n))');
  await db.ddl('CREATE TABLE p (x VARCHAR(5), y INT, PRIMARY KEY (x, y))');
  schema = await db.catalog.latestSchema();
});

function joinOf(sql: string): Extract<PlanNode, { kind: 'join' }> {
  let p: PlanNode = buildSelect(parseStatement(sql).stmt as SelectStmt, schema, 'test');
  while (p.kind !== 'join') {
    if (!('child' in p)) throw new Error('no join');
    p = p.child;
  }
  return p;
}

/** `index-or-handle:key columns` of the index join, or `hash`. */
function choice(sql: string): string {
  const ij = joinOf(sql).indexJoin;
  if (ij === undefined) return 'hash';
  return `${ij.index?.name ?? 'handle'}:${ij.columns.map((c) => c.name).join(',')}`;
}

describe('index join planning', () => {
  it('uses the int handle, a secondary index or a common-handle prefix', () => {
    expect(choice('SELECT * FROM o JOIN c ON c.id = o.cid')).toBe('handle:id');
    expect(choice('SELECT * FROM c LEFT JOIN o ON o.cid = c.id')).toBe('kc:cid');
    expect(choice('SELECT * FROM o JOIN c ON c.name = o.s AND c.n = o.id')).toBe('kn:name,n');
    expect(choice('SELECT * FROM o JOIN c ON c.n = o.id AND c.name = o.s')).toBe('kn:name,n');
    expect(choice('SELECT * FROM o JOIN p ON p.x = o.s')).toBe('handle:x');
    expect(choice('SELECT * FROM o JOIN c ON c.id = o.cid + 1')).toBe('handle:id');
  });

  it('keeps the hash join otherwise', () => {
    expect(choice('SELECT * FROM o JOIN c ON c.n = o.cid')).toBe('hash');
    expect(choice('SELECT * FROM o JOIN c ON c.id = o.s')).toBe('hash');
    expect(choice('SELECT * FROM o JOIN c ON c.id > o.cid')).toBe('hash');
    expect(choice('SELECT * FROM o JOIN (SELECT * FROM c) d ON d.id = o.cid')).toBe('hash');
    expect(choice('SELECT * FROM o JOIN c ON c.id = LENGTH(o.s)')).toBe('hash');
  });

  it('shows in the plan summary', () => {
    const sql = 'SELECT * FROM o JOIN c ON c.id = o.cid WHERE o.id = 1';
    expect(planSummary(buildSelect(parseStatement(sql).stmt as SelectStmt, schema, 'test'))).toContain('IndexJoin(');
  });
});
