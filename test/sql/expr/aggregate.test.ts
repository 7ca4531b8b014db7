import { describe, expect, test } from 'vitest';
import type { AggName } from '../../../src/sql/parse/ast.js';
import { aggregateType, createAggregator } from '../../../src/sql/expr/index.js';
import { formatColumnType, type ColumnType, type Value } from '../../../src/types/index.js';
import { dec, show, T } from './helpers.js';

function aggregate(name: AggName, values: Value[], argType: ColumnType = T.int, distinct = false, sep?: string): unknown {
  const agg = createAggregator(name, distinct, argType, sep);
  for (const v of values) agg.add(v);
  return show(agg.result());
}

describe('aggregates', () => {
  test.each<[string, AggName, Value[], ColumnType, boolean, unknown]>([
    ['COUNT ignores NULL', 'COUNT', [1n, null, 3n], T.int, false, 2n],
    ['COUNT(*) fed 1n', 'COUNT', [1n, 1n, 1n], T.int, false, 3n],
    ['COUNT empty', 'COUNT', [], T.int, false, 0n],
    ['COUNT DISTINCT', 'COUNT', [1n, 2n, 1n, null, 2n], T.int, true, 2n],
    ['COUNT DISTINCT mixed numeric forms', 'COUNT', [1n, dec('1.0'), 1], T.dec(5, 1), true, 1n],
    ['COUNT DISTINCT strings (utf8mb4_0900_ai_ci)', 'COUNT', ['a', 'A', 'á', 'b'], T.varchar(5), true, 2n],
    ['COUNT DISTINCT strings (utf8mb4_bin)', 'COUNT', ['a', 'A', 'a'], { ...T.varchar(5), collation: 'utf8mb4_bin' }, true, 2n],
    ['MIN strings (utf8mb4_0900_ai_ci)', 'MIN', ['b', 'B', 'A', 'a'], T.varchar(5), false, 'A'],
    ['MAX strings (utf8mb4_bin)', 'MAX', ['b', 'B', 'A', 'a'], { ...T.varchar(5), collation: 'utf8mb4_bin' }, false, 'b'],
    ['SUM int -> Decimal', 'SUM', [1n, 2n, null, 3n], T.int, false, 'dec:6'],
    ['SUM empty -> NULL', 'SUM', [], T.int, false, null],
    ['SUM all NULL -> NULL', 'SUM', [null, null], T.int, false, null],
    ['SUM decimal', 'SUM', [dec('0.1'), dec('0.2')], T.dec(5, 1), false, 'dec:0.3'],
    ['SUM beyond 2^64', 'SUM', [18446744073709551615n, 18446744073709551615n], T.bigintU, false, 'dec:36893488147419103230'],
    ['SUM double', 'SUM', [0.5, 0.25], T.double, false, 0.75],
    ['SUM DISTINCT', 'SUM', [1n, 1n, 2n], T.int, true, 'dec:3'],
    ['AVG int scale 4', 'AVG', [1n, 2n], T.int, false, 'dec:1.5'],
    ['AVG int repeating', 'AVG', [1n, 1n, 2n], T.int, false, 'dec:1.3333'],
    ['AVG decimal(5,2) scale 6', 'AVG', [dec('1.00'), dec('2.00'), dec('2.00')], T.dec(5, 2), false, 'dec:1.666667'],
    ['AVG double', 'AVG', [1, 2], T.double, false, 1.5],
    ['AVG empty', 'AVG', [], T.int, false, null],
    ['AVG DISTINCT', 'AVG', [1n, 1n, 4n], T.int, true, 'dec:2.5'],
    ['MIN', 'MIN', [3n, null, 1n, 2n], T.int, false, 1n],
    ['MAX strings', 'MAX', ['b', 'c', 'a'], T.varchar(5), false, 'c'],
    ['MAX empty', 'MAX', [], T.int, false, null],
    ['GROUP_CONCAT', 'GROUP_CONCAT', ['a', null, 'b', 1n], T.varchar(5), false, 'a,b,1'],
    ['GROUP_CONCAT DISTINCT', 'GROUP_CONCAT', ['a', 'b', 'a'], T.varchar(5), true, 'a,b'],
    ['GROUP_CONCAT empty', 'GROUP_CONCAT', [], T.varchar(5), false, null],
    ['BIT_AND', 'BIT_AND', [7n, 3n, null], T.int, false, 3n],
    ['BIT_AND empty', 'BIT_AND', [], T.int, false, 18446744073709551615n],
    ['BIT_OR', 'BIT_OR', [1n, 4n], T.int, false, 5n],
    ['BIT_XOR', 'BIT_XOR', [1n, 3n], T.int, false, 2n],
    ['BIT_OR empty', 'BIT_OR', [], T.int, false, 0n],
  ])('%s', (_name, name, values, type, distinct, expected) => {
    expect(aggregate(name, values, type, distinct)).toEqual(expected);
  });

  test('GROUP_CONCAT separator', () => {
    expect(aggregate('GROUP_CONCAT', ['a', 'b'], T.varchar(5), false, ' | ')).toBe('a | b');
  });
});

describe('aggregateType', () => {
  test.each<[AggName, ColumnType, string]>([
    ['COUNT', T.int, 'bigint'],
    ['SUM', T.int, 'decimal(32,0)'],
    ['SUM', T.bigint, 'decimal(41,0)'],
    ['SUM', T.dec(10, 2), 'decimal(32,2)'],
    ['SUM', T.double, 'double'],
    ['AVG', T.int, 'decimal(14,4)'],
    ['AVG', T.dec(10, 2), 'decimal(14,6)'],
    ['MIN', T.varchar(20), 'varchar(20)'],
    ['MAX', T.datetime(3), 'datetime(3)'],
    ['BIT_OR', T.int, 'bigint unsigned'],
    ['GROUP_CONCAT', T.int, 'varchar(1024)'],
  ])('%s(%o)', (name, type, expected) => {
    expect(formatColumnType(aggregateType(name, type))).toBe(expected);
  });

  test('COUNT is BIGINT length 21', () => {
    expect(aggregateType('COUNT', T.int).length).toBe(21);
  });
});
