import { describe, expect, test } from 'vitest';
import type { Expr } from '../../../src/sql/parse/ast.js';
import { compareValues, truthy } from '../../../src/sql/expr/index.js';
import { DateTime, Duration, type Value } from '../../../src/types/index.js';
import { bin, col, dec, errorOf, lit, NULL, run, show } from './helpers.js';

const T = lit(1n);
const F = lit(0n);
const not = (operand: Expr): Expr => ({ kind: 'unary', op: 'NOT', operand });

describe('three-valued logic', () => {
  test.each<[string, Expr, Value]>([
    ['1 AND 1', bin('AND', T, T), 1n],
    ['1 AND 0', bin('AND', T, F), 0n],
    ['NULL AND 0', bin('AND', NULL, F), 0n],
    ['0 AND NULL', bin('AND', F, NULL), 0n],
    ['NULL AND 1', bin('AND', NULL, T), null],
    ['NULL OR 1', bin('OR', NULL, T), 1n],
    ['NULL OR 0', bin('OR', NULL, F), null],
    ['0 OR 0', bin('OR', F, F), 0n],
    ['1 XOR 1', bin('XOR', T, T), 0n],
    ['1 XOR 0', bin('XOR', T, F), 1n],
    ['NULL XOR 1', bin('XOR', NULL, T), null],
    ['NOT NULL', not(NULL), null],
    ['NOT 0', not(F), 1n],
    ["NOT 'abc'", not(lit('abc')), 1n],
    ["NOT '1x'", not(lit('1x')), 0n],
    ['2.5 AND 1', bin('AND', lit(dec('2.5')), T), 1n],
  ])('%s', (_name, e, expected) => {
    expect(run(e)).toBe(expected);
  });
});

describe('IS', () => {
  const isNull = (expr: Expr, n = false): Expr => ({ kind: 'isNull', expr, not: n });
  const isBool = (expr: Expr, value: boolean, n = false): Expr => ({ kind: 'isBool', expr, value, not: n });
  test.each<[string, Expr, Value]>([
    ['NULL IS NULL', isNull(NULL), 1n],
    ['n IS NULL', isNull(col('n')), 1n],
    ['k IS NOT NULL', isNull(col('k'), true), 1n],
    ['NULL IS TRUE', isBool(NULL, true), 0n],
    ['NULL IS NOT TRUE', isBool(NULL, true, true), 1n],
    ['0 IS FALSE', isBool(F, false), 1n],
    ['5 IS TRUE', isBool(lit(5n), true), 1n],
    ['NULL IS NOT FALSE', isBool(NULL, false, true), 1n],
  ])('%s', (_name, e, expected) => {
    expect(run(e)).toBe(expected);
  });
});

describe('comparisons across types', () => {
  const dt = new DateTime('datetime', 2020, 1, 31, 10, 0, 0);
  test.each<[string, Value, Value, number | null]>([
    ['int = int', 5n, 5n, 0],
    ['big ints exact', 9007199254740993n, 9007199254740992n, 1],
    ['int vs decimal', 1n, dec('1.00'), 0],
    ['decimal exact', dec('0.1'), dec('0.10000000000000000001'), -1],
    ['int vs double', 1n, 1.5, -1],
    ['string vs int as double', '10', 9n, 1],
    ['string prefix vs int', '5abc', 5n, 0],
    ['non-numeric string = 0', 'abc', 0n, 0],
    ['strings by bytes', 'a', 'B', 1],
    ['strings case-sensitive', 'abc', 'ABC', 1],
    ['prefix shorter first', 'ab', 'abc', -1],
    ['astral after BMP (utf8 order)', '\u{1F600}', '\uFFFD', 1],
    ['trailing space matters', 'a ', 'a', 1],
    ['datetime vs string', dt, '2020-01-31 10:00:00', 0],
    ['datetime vs date string', dt, '2020-01-31', 1],
    ['date vs datetime', new DateTime('date', 2020, 1, 31), dt, -1],
    ['datetime vs number', dt, 20200131100000n, 0],
    ['time vs string', new Duration(3_600_000_000n), '01:00:00', 0],
    ['bytes vs string', new Uint8Array([0x61]), 'a', 0],
    ['bytes vs bytes', new Uint8Array([1, 2]), new Uint8Array([1, 3]), -1],
    ['NULL left', null, 1n, null],
    ['NULL right', 1n, null, null],
  ])('%s', (_name, a, b, expected) => {
    const c = compareValues(a, b);
    expect(c === null ? null : Math.sign(c)).toBe(expected);
  });

  test.each<[string, Expr, Value]>([
    ['NULL = NULL', bin('=', NULL, NULL), null],
    ['NULL <=> NULL', bin('<=>', NULL, NULL), 1n],
    ['1 <=> NULL', bin('<=>', T, NULL), 0n],
    ['1 <> 2', bin('<>', T, lit(2n)), 1n],
    ['k >= 5', bin('>=', col('k'), lit(5n)), 1n],
    ['k < 5', bin('<', col('k'), lit(5n)), 0n],
    ["dt = '2020-01-31 10:00:00'", bin('=', col('dt'), lit('2020-01-31 10:00:00')), 1n],
    ["dt > '2020-01-31'", bin('>', col('dt'), lit('2020-01-31')), 1n],
    ['u (unsigned max) > k', bin('>', col('u'), col('k')), 1n],
    ['(1,2) = (1,2)', bin('=', { kind: 'row', items: [T, lit(2n)] }, { kind: 'row', items: [T, lit(2n)] }), 1n],
    ['(1,NULL) = (1,2)', bin('=', { kind: 'row', items: [T, NULL] }, { kind: 'row', items: [T, lit(2n)] }), null],
    ['(1,NULL) = (2,2)', bin('=', { kind: 'row', items: [T, NULL] }, { kind: 'row', items: [lit(2n), lit(2n)] }), 0n],
  ])('%s', (_name, e, expected) => {
    expect(run(e)).toBe(expected);
  });

  test('row operand count mismatch is 1241', () => {
    expect(errorOf(() => run(bin('=', { kind: 'row', items: [T, T] }, T)))).toBe('1241: Operand should contain 2 column(s)');
  });
});

describe('truthy', () => {
  test.each<[Value, boolean | null]>([
    [null, null], [0n, false], [2n, true], [0.0, false], [0.1, true], [dec('0.00'), false], ['0.0', false], ['x', false], [' 2', true],
  ])('%s', (v, expected) => {
    expect(truthy(v)).toBe(expected);
  });
});

describe('BETWEEN and IN', () => {
  const between = (expr: Expr, low: Expr, high: Expr, n = false): Expr => ({ kind: 'between', expr, low, high, not: n });
  const inList = (expr: Expr, list: Expr[], n = false): Expr => ({ kind: 'in', expr, list, not: n });
  test.each<[string, Expr, Value]>([
    ['id BETWEEN 1 AND 100', between(col('id'), T, lit(100n)), 1n],
    ['id BETWEEN 2 AND 100', between(col('id'), lit(2n), lit(100n)), 0n],
    ['id NOT BETWEEN 2 AND 100', between(col('id'), lit(2n), lit(100n), true), 1n],
    ['5 BETWEEN NULL AND 4', between(lit(5n), NULL, lit(4n)), 0n],
    ['5 BETWEEN NULL AND 6', between(lit(5n), NULL, lit(6n)), null],
    ["'b' BETWEEN 'a' AND 'c'", between(lit('b'), lit('a'), lit('c')), 1n],
    ['1 IN (1,2)', inList(T, [T, lit(2n)]), 1n],
    ['3 IN (1,2)', inList(lit(3n), [T, lit(2n)]), 0n],
    ['3 IN (1,NULL)', inList(lit(3n), [T, NULL]), null],
    ['1 IN (1,NULL)', inList(T, [T, NULL]), 1n],
    ['NULL IN (1)', inList(NULL, [T]), null],
    ['3 NOT IN (1,2)', inList(lit(3n), [T, lit(2n)], true), 1n],
    ['3 NOT IN (1,NULL)', inList(lit(3n), [T, NULL], true), null],
    ["'1' IN (1)", inList(lit('1'), [T]), 1n],
    ['k IN (1,2,3,4,5) (int set)', inList(col('k'), [1n, 2n, 3n, 4n, 5n].map(lit)), 1n],
    ['k NOT IN (1,2,3,4,6) (int set)', inList(col('k'), [1n, 2n, 3n, 4n, 6n].map(lit), true), 1n],
    ['(1,2) IN ((3,4),(1,2))', inList({ kind: 'row', items: [T, lit(2n)] }, [{ kind: 'row', items: [lit(3n), lit(4n)] }, { kind: 'row', items: [T, lit(2n)] }]), 1n],
  ])('%s', (_name, e, expected) => {
    expect(run(e)).toBe(expected);
  });
});

describe('LIKE', () => {
  const like = (s: Value, p: Value, escape?: string, n = false): Expr => ({
    kind: 'like', expr: lit(s), pattern: lit(p), not: n, ...(escape === undefined ? {} : { escape: lit(escape) }),
  });
  test.each<[string, Expr, Value]>([
    ["'abc' LIKE 'a%'", like('abc', 'a%'), 1n],
    ["'abc' LIKE 'A%' (case-insensitive literals: utf8mb4_0900_ai_ci)", like('abc', 'A%'), 1n],
    ["'abc' LIKE '_b_'", like('abc', '_b_'), 1n],
    ["'abc' LIKE '_b'", like('abc', '_b'), 0n],
    ["'a%c' LIKE 'a\\%c'", like('a%c', 'a\\%c'), 1n],
    ["'abc' LIKE 'a\\%c'", like('abc', 'a\\%c'), 0n],
    ["'a_c' LIKE 'a|_c' ESCAPE '|'", like('a_c', 'a|_c', '|'), 1n],
    ["'a.c' LIKE 'a.c' (regex meta literal)", like('a.c', 'a.c'), 1n],
    ["'abc' LIKE 'a.c'", like('abc', 'a.c'), 0n],
    ["'x\\ny' LIKE 'x%y'", like('x\ny', 'x%y'), 1n],
    ["'日本語' LIKE '_本_'", like('日本語', '_本_'), 1n],
    ["'\u{1F600}' LIKE '_'", like('\u{1F600}', '_'), 1n],
    ['NULL LIKE', like(null, '%'), null],
    ["'abc' NOT LIKE 'b%'", like('abc', 'b%', undefined, true), 1n],
    ["123 LIKE '12%'", like(123n, '12%'), 1n],
    ["'ab\\' LIKE 'ab\\' (trailing escape)", like('ab\\', 'ab\\'), 1n],
  ])('%s', (_name, e, expected) => {
    expect(run(e)).toBe(expected);
  });
});

describe('CASE', () => {
  test.each<[string, Expr, unknown]>([
    ['searched', { kind: 'case', whens: [{ when: F, then: lit('a') }, { when: T, then: lit('b') }], else: lit('c') }, 'b'],
    ['searched else', { kind: 'case', whens: [{ when: F, then: lit('a') }], else: lit('c') }, 'c'],
    ['searched no else', { kind: 'case', whens: [{ when: NULL, then: lit('a') }] }, null],
    ['simple', { kind: 'case', operand: col('k'), whens: [{ when: lit(4n), then: lit('four') }, { when: lit(5n), then: lit('five') }] }, 'five'],
    ['simple NULL operand never matches', { kind: 'case', operand: NULL, whens: [{ when: NULL, then: lit('x') }], else: lit('y') }, 'y'],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e as Expr))).toBe(expected);
  });
});

describe('name resolution', () => {
  test.each<[string, Expr, string, string]>([
    ['unknown column', col('zz'), 'where clause', "1054: Unknown column 'zz' in 'where clause'"],
    ['unknown qualified', col('zz', 't'), 'field list', "1054: Unknown column 't.zz' in 'field list'"],
    ['wrong table', col('k', 'x'), 'on clause', "1054: Unknown column 'x.k' in 'on clause'"],
  ])('%s', async (_name, e, clause, expected) => {
    const { compileExpr } = await import('../../../src/sql/expr/index.js');
    const { scope } = await import('./helpers.js');
    expect(errorOf(() => compileExpr(e, scope, clause))).toBe(expected);
  });
  test.each<[string, Expr, string]>([
    ['aggregate', { kind: 'agg', name: 'COUNT', arg: null, distinct: false }, '1111: Invalid use of group function'],
    ['subquery', { kind: 'exists', not: false, query: { kind: 'select', distinct: false, items: [], from: null, groupBy: [], orderBy: [] } }, "1235: This version of MySQL doesn't yet support 'subqueries in expressions'"],
    ['DEFAULT', { kind: 'default' }, "1235: This version of MySQL doesn't yet support 'DEFAULT in this context'"],
  ])('%s', (_name, e, expected) => {
    expect(errorOf(() => run(e))).toBe(expected);
  });
});
