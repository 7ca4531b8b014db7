import { describe, expect, it } from 'vitest';
import { parseStatement, type Expr } from '../../../src/sql/parse/index.js';

function where(sql: string): Expr | undefined {
  const s = parseStatement(sql).stmt;
  if (s.kind !== 'select') throw new Error(`not a select: ${s.kind}`);
  return s.where;
}

const collate = (e: Expr, name: string): Expr => ({ kind: 'func', name: 'COLLATE', args: [e, { kind: 'literal', value: name }] });
const col = (name: string): Expr => ({ kind: 'column', name });

describe('COLLATE in expressions', () => {
  it('on a column, a literal and a function call', () => {
    expect(where("SELECT 1 FROM t WHERE name COLLATE utf8mb4_bin = 'x'")).toEqual({
      kind: 'binary', op: '=', left: collate(col('name'), 'utf8mb4_bin'), right: { kind: 'literal', value: 'x' },
    });
    expect(where("SELECT 1 FROM t WHERE name = 'x' COLLATE utf8mb4_general_ci")).toEqual({
      kind: 'binary', op: '=', left: col('name'), right: collate({ kind: 'literal', value: 'x' }, 'utf8mb4_general_ci'),
    });
    expect(where("SELECT 1 FROM t WHERE LOWER(name) COLLATE utf8mb4_bin LIKE 'a%'")).toMatchObject({
      kind: 'like', expr: collate({ kind: 'func', name: 'LOWER', args: [col('name')] }, 'utf8mb4_bin'),
    });
  });

  it('in ORDER BY and GROUP BY', () => {
    const s = parseStatement('SELECT name FROM t GROUP BY name COLLATE utf8mb4_bin ORDER BY name COLLATE utf8mb4_bin DESC').stmt;
    if (s.kind !== 'select') throw new Error('not a select');
    expect(s.groupBy).toEqual([collate(col('name'), 'utf8mb4_bin')]);
    expect(s.orderBy).toEqual([{ expr: collate(col('name'), 'utf8mb4_bin'), desc: true }]);
  });
});
