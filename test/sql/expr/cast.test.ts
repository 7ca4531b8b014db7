import { describe, expect, test } from 'vitest';
import { castValue } from '../../../src/sql/expr/index.js';
import { DateTime, Duration, makeType, type ColumnType, type Value } from '../../../src/types/index.js';
import { dec, fakeContext, show, T } from './helpers.js';

const SIGNED = makeType('bigint');
const UNSIGNED = makeType('bigint', { unsigned: true });
const CHAR = makeType('char');

describe('CAST', () => {
  test.each<[string, Value, ColumnType, unknown, number[]]>([
    ["'12' AS SIGNED", '12', SIGNED, 12n, []],
    ["'1.9' AS SIGNED truncates", '1.9', SIGNED, 1n, [1292]],
    ["'abc' AS SIGNED", 'abc', SIGNED, 0n, [1292]],
    ['1.5 AS SIGNED rounds', dec('1.5'), SIGNED, 2n, []],
    ['-1.5 AS SIGNED rounds away', dec('-1.5'), SIGNED, -2n, []],
    ['2.5e0 AS SIGNED', 2.5, SIGNED, 3n, []],
    ['-1 AS UNSIGNED wraps', -1n, UNSIGNED, 18446744073709551615n, []],
    ['2^64-1 AS SIGNED wraps', 18446744073709551615n, SIGNED, -1n, []],
    ['datetime AS SIGNED', new DateTime('datetime', 2020, 1, 2, 3, 4, 5), SIGNED, 20200102030405n, []],
    ['1.235 AS DECIMAL(5,2)', dec('1.235'), T.dec(5, 2), 'dec:1.24', []],
    ['-1.235 AS DECIMAL(5,2)', dec('-1.235'), T.dec(5, 2), 'dec:-1.24', []],
    ['12345 AS DECIMAL(4,1) clips', 12345n, T.dec(4, 1), 'dec:999.9', [1264]],
    ["'3.14159' AS DECIMAL(10,3)", '3.14159', T.dec(10, 3), 'dec:3.142', []],
    ['123 AS CHAR', 123n, CHAR, '123', []],
    ["'abcdef' AS CHAR(3)", 'abcdef', T.char(3), 'abc', [1292]],
    ['0.1e0 AS CHAR', 0.1, CHAR, '0.1', []],
    ["'ab' AS BINARY(4)", 'ab', T.binary(4), 'bytes:61620000', []],
    ["'ab' AS BINARY", 'ab', makeType('binary'), 'bytes:6162', []],
    ["'2020-02-29' AS DATE", '2020-02-29', T.date, 'DateTime:2020-02-29', []],
    ["'2021-02-29' AS DATE -> NULL", '2021-02-29', T.date, null, [1292]],
    ["'2020-01-02 03:04:05.6' AS DATETIME", '2020-01-02 03:04:05.6', T.datetime(), 'DateTime:2020-01-02 03:04:06', []],
    ["'2020-01-02' AS DATETIME(3)", '2020-01-02', T.datetime(3), 'DateTime:2020-01-02 00:00:00.000', []],
    ['20200102 AS DATE', 20200102n, T.date, 'DateTime:2020-01-02', []],
    ["'junk' AS DATETIME", 'junk', T.datetime(), null, [1292]],
    ["'10:11:12' AS TIME", '10:11:12', T.time(), 'Duration:10:11:12', []],
    ["'-1 02:00:00' AS TIME", '-1 02:00:00', T.time(), 'Duration:-26:00:00', []],
    ['101112 AS TIME', 101112n, T.time(), 'Duration:10:11:12', []],
    ['datetime AS TIME', new DateTime('datetime', 2020, 1, 2, 3, 4, 5), T.time(), 'Duration:03:04:05', []],
    ['time AS DATETIME uses today', new Duration(3_600_000_000n), T.datetime(), 'DateTime:2024-02-29 01:00:00', []],
    ["'1.5' AS DOUBLE", '1.5', T.double, 1.5, []],
    ['1 AS JSON', 1n, T.json, '1', []],
    ['NULL AS SIGNED', null, SIGNED, null, []],
  ])('%s', (_name, v, to, expected, warnings) => {
    const ctx = fakeContext();
    expect(show(castValue(v, to, ctx))).toEqual(expected);
    expect(ctx.warnings.map((w) => w.code)).toEqual(warnings);
  });

  test('warning texts', () => {
    const ctx = fakeContext();
    castValue('abc', SIGNED, ctx);
    castValue('junk', T.date, ctx);
    expect(ctx.warnings.map((w) => w.message)).toEqual(["Truncated incorrect INTEGER value: 'abc'", "Incorrect datetime value: 'junk'"]);
  });
});
