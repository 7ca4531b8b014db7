import { describe, expect, test } from 'vitest';
import { coerceToColumn } from '../../../src/sql/expr/index.js';
import { DateTime, Duration, makeType, type ColumnType, type Value } from '../../../src/types/index.js';
import { dec, errorOf, fakeContext, show, T } from './helpers.js';

function store(v: Value, type: ColumnType, strict = true): { value: unknown; warnings: string[] } {
  const ctx = fakeContext({ strict });
  const value = show(coerceToColumn(v, { name: 'c', type }, 1, ctx));
  return { value, warnings: ctx.warnings.map((w) => `${w.code}: ${w.message}`) };
}

describe('store assignment: accepted values', () => {
  test.each<[string, Value, ColumnType, unknown]>([
    ['bigint into int', 5n, T.int, 5n],
    ["'42' into int", '42', T.int, 42n],
    ["' 42 ' into int", ' 42 ', T.int, 42n],
    ["'1.5' into int rounds", '1.5', T.int, 2n],
    ["'1e3' into int", '1e3', T.int, 1000n],
    ['2.5 decimal into int rounds away', dec('2.5'), T.int, 3n],
    ['-2.5 double into int rounds away', -2.5, T.int, -3n],
    ['255 into tinyint unsigned', 255n, makeType('tinyint', { unsigned: true }), 255n],
    ['NULL stays NULL', null, T.int, null],
    ['datetime into bigint', new DateTime('datetime', 2020, 1, 2, 3, 4, 5), T.bigint, 20200102030405n],
    ['1.234 into decimal(10,2)', dec('1.235'), T.dec(10, 2), 'dec:1.24'],
    ["'12.5' into decimal(10,2)", '12.5', T.dec(10, 2), 'dec:12.5'],
    ['7 into decimal(5,2)', 7n, T.dec(5, 2), 'dec:7'],
    ["'1.5' into double", '1.5', T.double, 1.5],
    ['decimal into double', dec('0.1'), T.double, 0.1],
    ['int into varchar', 12n, T.varchar(10), '12'],
    ['double into varchar', 0.1, T.varchar(10), '0.1'],
    ["'ab  ' into char strips trailing spaces", 'ab  ', T.char(10), 'ab'],
    ["'abc   ' into char(3): excess spaces cut", 'abc   ', T.char(3), 'abc'],
    ["'日本語' into varchar(3) (characters)", '日本語', T.varchar(3), '日本語'],
    ["'ab' into binary(4) pads", 'ab', T.binary(4), 'bytes:61620000'],
    ["'ab' into varbinary(4)", 'ab', T.varbinary(4), 'bytes:6162'],
    ['bytes into blob', new Uint8Array([1, 2]), T.blob, 'bytes:0102'],
    ["'2020-01-02' into date", '2020-01-02', T.date, 'DateTime:2020-01-02'],
    ["'2020/1/2' into date", '2020/1/2', T.date, 'DateTime:2020-01-02'],
    ["'20200102' into date", '20200102', T.date, 'DateTime:2020-01-02'],
    ['20200102 into date', 20200102n, T.date, 'DateTime:2020-01-02'],
    ["'20-01-02' into date (2-digit year)", '20-01-02', T.date, 'DateTime:2020-01-02'],
    ["'99-01-02' into date", '99-01-02', T.date, 'DateTime:1999-01-02'],
    ["'2020-01-02 03:04:05' into datetime", '2020-01-02 03:04:05', T.datetime(), 'DateTime:2020-01-02 03:04:05'],
    ["'2020-01-02T03:04:05' into datetime", '2020-01-02T03:04:05', T.datetime(), 'DateTime:2020-01-02 03:04:05'],
    ['20200102030405 into datetime', 20200102030405n, T.datetime(), 'DateTime:2020-01-02 03:04:05'],
    ["'2020-01-02' into datetime", '2020-01-02', T.datetime(), 'DateTime:2020-01-02 00:00:00'],
    ['fsp rounding carries', '2020-12-31 23:59:59.5', T.datetime(), 'DateTime:2021-01-01 00:00:00'],
    ['fsp 3 rounding', '2020-01-02 03:04:05.123456', T.datetime(3), 'DateTime:2020-01-02 03:04:05.123'],
    ['datetime into date', new DateTime('datetime', 2020, 1, 2, 3, 4, 5), T.date, 'DateTime:2020-01-02'],
    ['timestamp in range', '2020-01-02 03:04:05', T.timestamp, 'DateTime:2020-01-02 03:04:05'],
    ["'12:34:56' into time", '12:34:56', T.time(), 'Duration:12:34:56'],
    ["'838:59:59' into time", '838:59:59', T.time(), 'Duration:838:59:59'],
    ['duration into time(2)', new Duration(1_234_567n), T.time(2), 'Duration:00:00:01.23'],
    ['year 2024', 2024n, T.year, 2024n],
    ['year 5 -> 2005', 5n, T.year, 2005n],
    ['year 75 -> 1975', 75n, T.year, 1975n],
    ["year '0' -> 2000", '0', T.year, 2000n],
    ['year 0 -> 0', 0n, T.year, 0n],
    ['json text', '{"a": 1}', T.json, '{"a": 1}'],
  ])('%s', (_name, v, type, expected) => {
    const r = store(v, type);
    expect(r.value).toEqual(expected);
  });
});

describe('store assignment: strict errors (exact errno and text)', () => {
  test.each<[string, Value, ColumnType, string]>([
    ['int out of range', 2147483648n, T.int, "1264: Out of range value for column 'c' at row 1"],
    ['negative into unsigned', -1n, T.intU, "1264: Out of range value for column 'c' at row 1"],
    ['tinyint 128', 128n, T.tinyint, "1264: Out of range value for column 'c' at row 1"],
    ['double 1e20 into bigint', 1e20, T.bigint, "1264: Out of range value for column 'c' at row 1"],
    ["'abc' into int", 'abc', T.int, "1366: Incorrect integer value: 'abc' for column 'c' at row 1"],
    ["'' into int", '', T.int, "1366: Incorrect integer value: '' for column 'c' at row 1"],
    ["'12abc' into int", '12abc', T.int, "1265: Data truncated for column 'c' at row 1"],
    ["'abc' into decimal", 'abc', T.dec(10, 2), "1366: Incorrect decimal value: 'abc' for column 'c' at row 1"],
    ['decimal precision', dec('1000'), T.dec(5, 2), "1264: Out of range value for column 'c' at row 1"],
    ["'x' into double", 'x', T.double, "1366: Incorrect double value: 'x' for column 'c' at row 1"],
    ['char too long', 'abcd', T.char(3), "1406: Data too long for column 'c' at row 1"],
    ['varchar too long (chars)', '日本語!', T.varchar(3), "1406: Data too long for column 'c' at row 1"],
    ['tinytext bytes', 'é'.repeat(128), T.tinytext, "1406: Data too long for column 'c' at row 1"],
    ['binary too long', 'abcde', T.binary(4), "1406: Data too long for column 'c' at row 1"],
    ["'abc' into date", 'abc', T.date, "1292: Incorrect date value: 'abc' for column 'c' at row 1"],
    ["'2021-02-29' into date", '2021-02-29', T.date, "1292: Incorrect date value: '2021-02-29' for column 'c' at row 1"],
    ["'2020-13-01' into datetime", '2020-13-01', T.datetime(), "1292: Incorrect datetime value: '2020-13-01' for column 'c' at row 1"],
    ["zero date (NO_ZERO_DATE)", '0000-00-00', T.date, "1292: Incorrect date value: '0000-00-00' for column 'c' at row 1"],
    ['timestamp before 1970', '1969-12-31 23:59:59', T.timestamp, "1292: Incorrect datetime value: '1969-12-31 23:59:59' for column 'c' at row 1"],
    ["'25:61:00' into time", '25:61:00', T.time(), "1292: Incorrect time value: '25:61:00' for column 'c' at row 1"],
    ['bad json', '{a', T.json, "3140: Invalid JSON text: \"Missing a name for object member.\" at position 1 in value for column 'c'."],
    ['year 2156', 2156n, T.year, "1264: Out of range value for column 'c' at row 1"],
  ])('%s', (_name, v, type, expected) => {
    expect(errorOf(() => coerceToColumn(v, { name: 'c', type }, 1, fakeContext({ strict: true })))).toBe(expected);
  });

  test('row number is reported', () => {
    expect(errorOf(() => coerceToColumn(300n, { name: 'k', type: T.tinyint }, 7, fakeContext()))).toBe(
      "1264: Out of range value for column 'k' at row 7",
    );
  });
});

describe('store assignment: non-strict clips and warns', () => {
  test.each<[string, Value, ColumnType, unknown, string[]]>([
    ['int clipped', 2147483648n, T.int, 2147483647n, ["1264: Out of range value for column 'c' at row 1"]],
    ['unsigned clipped to 0', -5n, T.intU, 0n, ["1264: Out of range value for column 'c' at row 1"]],
    ["'abc' -> 0", 'abc', T.int, 0n, ["1366: Incorrect integer value: 'abc' for column 'c' at row 1"]],
    ["'12abc' -> 12", '12abc', T.int, 12n, ["1265: Data truncated for column 'c' at row 1"]],
    ['decimal clipped', dec('1000'), T.dec(5, 2), 'dec:999.99', ["1264: Out of range value for column 'c' at row 1"]],
    ['char truncated', 'abcd', T.char(3), 'abc', ["1265: Data truncated for column 'c' at row 1"]],
    ['bad date -> zero date', 'abc', T.date, 'DateTime:0000-00-00', ["1292: Incorrect date value: 'abc' for column 'c' at row 1"]],
    ['decimal scale rounding is a note', dec('1.005'), T.dec(5, 2), 'dec:1.01', ["1265: Data truncated for column 'c' at row 1"]],
  ])('%s', (_name, v, type, expected, warnings) => {
    const r = store(v, type, false);
    expect(r.value).toEqual(expected);
    expect(r.warnings).toEqual(warnings);
  });
});
