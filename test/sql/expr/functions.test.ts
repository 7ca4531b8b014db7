import { describe, expect, test } from 'vitest';
import type { Expr } from '../../../src/sql/parse/ast.js';
import { compileExpr, type Scope } from '../../../src/sql/expr/index.js';
import { DateTime, Duration } from '../../../src/types/index.js';
import { bin, col, dec, errorOf, fakeContext, fn, interval, lit, NULL, run, scope, show } from './helpers.js';

const d = (s: string): Expr => lit(new DateTime('date', ...(s.split('-').map(Number) as [number, number, number])));
const dt = (y: number, mo: number, day: number, h = 0, mi = 0, s = 0, micro = 0, fsp = 0): Expr =>
  lit(new DateTime('datetime', y, mo, day, h, mi, s, micro, fsp));

describe('information functions', () => {
  test.each<[string, Expr, unknown]>([
    ['DATABASE()', fn('DATABASE'), 'test'],
    ['SCHEMA()', fn('SCHEMA'), 'test'],
    ['VERSION()', fn('VERSION'), '8.0.11-shale-0.1.0'],
    ['USER()', fn('USER'), 'root@127.0.0.1'],
    ['CURRENT_USER()', fn('CURRENT_USER'), 'root@127.0.0.1'],
    ['CONNECTION_ID()', fn('CONNECTION_ID'), 5n],
    ['LAST_INSERT_ID()', fn('LAST_INSERT_ID'), 42n],
    ['LAST_INSERT_ID(7)', fn('LAST_INSERT_ID', lit(7n)), 7n],
    ['ROW_COUNT()', fn('ROW_COUNT'), 3n],
    ['FOUND_ROWS()', fn('FOUND_ROWS'), 7n],
    ['@@version', { kind: 'variable', scope: 'default', name: 'version' }, '8.0.11-shale-0.1.0'],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });

  test.each<[string, Expr, string]>([
    ['unknown function', fn('FOO', lit(1n)), '1305: FUNCTION test.foo does not exist'],
    ['arity', fn('CONCAT_WS', lit('a')), "1582: Incorrect parameter count in the call to native function 'CONCAT_WS'"],
    ['arity of zero-arg', fn('PI', lit(1n)), "1582: Incorrect parameter count in the call to native function 'PI'"],
    ['unknown variable', { kind: 'variable', scope: 'session', name: 'nope' }, "1193: Unknown system variable 'nope'"],
  ])('%s', (_name, e, expected) => {
    expect(errorOf(() => run(e))).toBe(expected);
  });

  test('unknown function without a current database', () => {
    const bare: Scope = { resolve: (r) => scope.resolve(r) };
    expect(errorOf(() => compileExpr(fn('FOO'), bare, 'field list'))).toBe('1305: FUNCTION foo does not exist');
  });
});

describe('control functions', () => {
  test.each<[string, Expr, unknown]>([
    ['IF true', fn('IF', lit(1n), lit('a'), lit('b')), 'a'],
    ['IF NULL', fn('IF', NULL, lit('a'), lit('b')), 'b'],
    ['IFNULL', fn('IFNULL', NULL, lit(2n)), 2n],
    ['IFNULL non-null', fn('IFNULL', lit(1n), lit(2n)), 1n],
    ['NULLIF equal', fn('NULLIF', lit(1n), lit(1n)), null],
    ['NULLIF differ', fn('NULLIF', lit(1n), lit(2n)), 1n],
    ['COALESCE', fn('COALESCE', NULL, col('n'), lit('x'), lit('y')), 'x'],
    ['COALESCE all NULL', fn('COALESCE', NULL, NULL), null],
    ['GREATEST', fn('GREATEST', lit(1n), lit(5n), lit(3n)), 5n],
    ['GREATEST NULL', fn('GREATEST', lit(1n), NULL), null],
    ['LEAST strings', fn('LEAST', lit('b'), lit('a'), lit('c')), 'a'],
    ['ISNULL', fn('ISNULL', NULL), 1n],
    ['IF is lazy', fn('IF', lit(1n), lit('ok'), bin('+', lit(9223372036854775807n), lit(1n))), 'ok'],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });
});

describe('string functions', () => {
  test.each<[string, Expr, unknown]>([
    ['CONCAT', fn('CONCAT', lit('a'), lit(1n), lit(dec('2.5')), lit(0.5)), 'a12.50.5'],
    ['CONCAT NULL', fn('CONCAT', lit('a'), NULL), null],
    ['CONCAT_WS skips NULL', fn('CONCAT_WS', lit(','), lit('a'), NULL, lit('b')), 'a,b'],
    ['CONCAT_WS NULL sep', fn('CONCAT_WS', NULL, lit('a')), null],
    ['LENGTH bytes', fn('LENGTH', lit('日本')), 6n],
    ['CHAR_LENGTH', fn('CHAR_LENGTH', lit('日本')), 2n],
    ['UPPER', fn('UPPER', lit('abc')), 'ABC'],
    ['LCASE', fn('LCASE', lit('ABC')), 'abc'],
    ['SUBSTRING(s,2)', fn('SUBSTRING', lit('Quadratically'), lit(5n)), 'ratically'],
    ['SUBSTRING(s,5,6)', fn('SUBSTRING', lit('Quadratically'), lit(5n), lit(6n)), 'ratica'],
    ['SUBSTRING(s,-3)', fn('SUBSTRING', lit('Sakila'), lit(-3n)), 'ila'],
    ['SUBSTRING(s,0)', fn('SUBSTRING', lit('Sakila'), lit(0n)), ''],
    ['MID', fn('MID', lit('Sakila'), lit(2n), lit(3n)), 'aki'],
    ['LEFT', fn('LEFT', lit('foobarbar'), lit(5n)), 'fooba'],
    ['RIGHT', fn('RIGHT', lit('foobarbar'), lit(4n)), 'rbar'],
    ['TRIM', fn('TRIM', lit('  bar  ')), 'bar'],
    ['TRIM(x FROM s)', fn('TRIM', lit('x'), lit('xxbarxx')), 'bar'],
    ['TRIM(LEADING x FROM s)', fn('TRIM', lit('LEADING'), lit('x'), lit('xxbarxx')), 'barxx'],
    ['TRIM(TRAILING xyz FROM s)', fn('TRIM', lit('TRAILING'), lit('xyz'), lit('barxxyz')), 'barx'],
    ['LTRIM', fn('LTRIM', lit('  a ')), 'a '],
    ['RTRIM', fn('RTRIM', lit(' a  ')), ' a'],
    ['REPLACE', fn('REPLACE', lit('www.mysql.com'), lit('w'), lit('Ww')), 'WwWwWw.mysql.com'],
    ['REPEAT', fn('REPEAT', lit('ab'), lit(3n)), 'ababab'],
    ['REPEAT 0', fn('REPEAT', lit('ab'), lit(0n)), ''],
    ['REVERSE', fn('REVERSE', lit('abc')), 'cba'],
    ['LPAD', fn('LPAD', lit('hi'), lit(4n), lit('??')), '??hi'],
    ['LPAD truncates', fn('LPAD', lit('hi'), lit(1n), lit('??')), 'h'],
    ['RPAD', fn('RPAD', lit('hi'), lit(5n), lit('?')), 'hi???'],
    ['LOCATE', fn('LOCATE', lit('bar'), lit('foobarbar')), 4n],
    ['LOCATE from', fn('LOCATE', lit('bar'), lit('foobarbar'), lit(5n)), 7n],
    ['LOCATE missing', fn('LOCATE', lit('xbar'), lit('foobar')), 0n],
    ['INSTR', fn('INSTR', lit('foobarbar'), lit('bar')), 4n],
    ['POSITION', fn('POSITION', lit('bar'), lit('foobarbar')), 4n],
    ['HEX string', fn('HEX', lit('abc')), '616263'],
    ['HEX number', fn('HEX', lit(255n)), 'FF'],
    ['HEX -1', fn('HEX', lit(-1n)), 'FFFFFFFFFFFFFFFF'],
    ['UNHEX', fn('UNHEX', lit('4D7953514C')), 'bytes:4d7953514c'],
    ['UNHEX invalid', fn('UNHEX', lit('GG')), null],
    ['MD5', fn('MD5', lit('testing')), 'ae2b1fca515949e5d54fb22b8ed95575'],
    ['SHA1', fn('SHA1', lit('abc')), 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    ['SHA2 256', fn('SHA2', lit('abc'), lit(256n)), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['SHA2 bad len', fn('SHA2', lit('abc'), lit(7n)), null],
    ['ASCII', fn('ASCII', lit('2')), 50n],
    ['CHAR', fn('CHAR', lit(77n), lit(121n), lit(83n), lit(81n), lit(76n)), 'bytes:4d7953514c'],
    ['CHAR 256', fn('CHAR', lit(256n)), 'bytes:0100'],
    ['SPACE', fn('SPACE', lit(3n)), '   '],
    ['STRCMP', fn('STRCMP', lit('text'), lit('text2')), -1n],
    ['STRCMP equal', fn('STRCMP', lit('a'), lit('a')), 0n],
    ['STRCMP ignores case (utf8mb4_0900_ai_ci)', fn('STRCMP', lit('a'), lit('A')), 0n],
    ['FORMAT', fn('FORMAT', lit(12332.123456), lit(4n)), '12,332.1235'],
    ['FORMAT 0 decimals', fn('FORMAT', lit(dec('12332.5')), lit(0n)), '12,333'],
    ['FORMAT negative', fn('FORMAT', lit(-1234567n), lit(2n)), '-1,234,567.00'],
    ['BIN', fn('BIN', lit(12n)), '1100'],
    ['OCT', fn('OCT', lit(12n)), '14'],
    ['CONV hex->dec', fn('CONV', lit('a'), lit(16n), lit(10n)), '10'],
    ['CONV to base 2', fn('CONV', lit('6E'), lit(18n), lit(8n)), '172'],
    ['CONV signed', fn('CONV', lit(-17n), lit(10n), lit(-18n)), '-H'],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });

  test('UUID shape', () => {
    expect(run(fn('UUID'))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('math functions', () => {
  test.each<[string, Expr, unknown]>([
    ['ABS int', fn('ABS', lit(-5n)), 5n],
    ['ABS decimal', fn('ABS', lit(dec('-1.5'))), 'dec:1.5'],
    ['CEIL decimal', fn('CEIL', lit(dec('1.2'))), 2n],
    ['CEILING negative', fn('CEILING', lit(dec('-1.2'))), -1n],
    ['FLOOR double', fn('FLOOR', lit(-1.5)), -2],
    ['ROUND decimal half away', fn('ROUND', lit(dec('2.5'))), 'dec:3'],
    ['ROUND negative decimal', fn('ROUND', lit(dec('-2.5'))), 'dec:-3'],
    ['ROUND(1.298, 1)', fn('ROUND', lit(dec('1.298')), lit(1n)), 'dec:1.3'],
    ['ROUND(23.298, -1)', fn('ROUND', lit(dec('23.298')), lit(-1n)), 'dec:20'],
    ['ROUND int -1', fn('ROUND', lit(125n), lit(-1n)), 130n],
    ['ROUND double half even', fn('ROUND', lit(2.5)), 2],
    ['ROUND double 3.5', fn('ROUND', lit(3.5)), 4],
    ['TRUNCATE', fn('TRUNCATE', lit(dec('1.999')), lit(1n)), 'dec:1.9'],
    ['TRUNCATE negative d', fn('TRUNCATE', lit(122n), lit(-2n)), 100n],
    ['TRUNCATE double', fn('TRUNCATE', lit(-1.999), lit(1n)), -1.9],
    ['MOD', fn('MOD', lit(29n), lit(9n)), 2n],
    ['MOD by 0', fn('MOD', lit(29n), lit(0n)), null],
    ['POW', fn('POW', lit(2n), lit(10n)), 1024],
    ['POWER', fn('POWER', lit(2n), lit(-2n)), 0.25],
    ['SQRT', fn('SQRT', lit(4n)), 2],
    ['SQRT negative', fn('SQRT', lit(-4n)), null],
    ['EXP(0)', fn('EXP', lit(0n)), 1],
    ['LN', fn('LN', lit(1n)), 0],
    ['LN(0)', fn('LN', lit(0n)), null],
    ['LOG(2, 8)', fn('LOG', lit(2n), lit(8n)), 3],
    ['LOG2', fn('LOG2', lit(65536n)), 16],
    ['LOG10', fn('LOG10', lit(100n)), 2],
    ['PI', fn('PI'), Math.PI],
    ['SIGN', fn('SIGN', lit(-32n)), -1n],
    ['SIGN decimal 0', fn('SIGN', lit(dec('0.0'))), 0n],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });

  test('RAND(seed) is deterministic and in [0,1)', () => {
    const a = compileExpr(fn('RAND', lit(3n)), scope, 'field list');
    const b = compileExpr(fn('RAND', lit(3n)), scope, 'field list');
    const ctx = fakeContext();
    const xs = [a([], ctx), a([], ctx)];
    expect([b([], ctx), b([], ctx)]).toEqual(xs);
    expect(xs[0]).not.toEqual(xs[1]);
    for (const x of xs) expect(x as number).toBeGreaterThanOrEqual(0);
    const r = run(fn('RAND')) as number;
    expect(r >= 0 && r < 1).toBe(true);
  });
});

describe('date and time functions', () => {
  test.each<[string, Expr, unknown]>([
    ['NOW()', fn('NOW'), 'DateTime:2024-02-29 13:14:15'],
    ['NOW(3)', fn('NOW', lit(3n)), 'DateTime:2024-02-29 13:14:15.123'],
    ['CURRENT_TIMESTAMP(6)', fn('CURRENT_TIMESTAMP', lit(6n)), 'DateTime:2024-02-29 13:14:15.123456'],
    ['CURDATE()', fn('CURDATE'), 'DateTime:2024-02-29'],
    ['CURTIME()', fn('CURTIME'), 'Duration:13:14:15'],
    ['UTC_TIMESTAMP()', fn('UTC_TIMESTAMP'), 'DateTime:2024-02-29 13:14:15'],
    ['UNIX_TIMESTAMP()', fn('UNIX_TIMESTAMP'), 1709212455n],
    ["UNIX_TIMESTAMP('1970-01-02')", fn('UNIX_TIMESTAMP', lit('1970-01-02')), 86400n],
    ['UNIX_TIMESTAMP(frac)', fn('UNIX_TIMESTAMP', dt(1970, 1, 1, 0, 0, 1, 500000, 6)), 'dec:1.5'],
    ['FROM_UNIXTIME', fn('FROM_UNIXTIME', lit(1709212455n)), 'DateTime:2024-02-29 13:14:15'],
    ['FROM_UNIXTIME fmt', fn('FROM_UNIXTIME', lit(0n), lit('%Y %D %M')), '1970 1st January'],
    ['DATE()', fn('DATE', lit('2003-12-31 01:02:03')), 'DateTime:2003-12-31'],
    ['YEAR', fn('YEAR', lit('1987-01-01')), 1987n],
    ['MONTH', fn('MONTH', col('dt')), 1n],
    ['DAY', fn('DAY', col('dt')), 31n],
    ['DAYOFMONTH', fn('DAYOFMONTH', lit('2007-02-03')), 3n],
    ['HOUR', fn('HOUR', lit('10:05:03')), 10n],
    ['HOUR of TIME > 24', fn('HOUR', lit('272:59:59')), 272n],
    ['MINUTE', fn('MINUTE', lit('2008-02-03 10:05:03')), 5n],
    ['SECOND', fn('SECOND', col('dt')), 0n],
    ['DAYOFWEEK', fn('DAYOFWEEK', lit('2007-02-03')), 7n],
    ['WEEKDAY', fn('WEEKDAY', lit('2008-02-03 22:23:00')), 6n],
    ['DAYOFYEAR', fn('DAYOFYEAR', lit('2007-02-03')), 34n],
    ['TO_DAYS', fn('TO_DAYS', lit('2007-10-07')), 733321n],
    ['YEAR of bad date', fn('YEAR', lit('nope')), null],
    ['DATE_FORMAT', fn('DATE_FORMAT', lit('2009-10-04 22:23:00'), lit('%W %M %Y')), 'Sunday October 2009'],
    ['DATE_FORMAT time', fn('DATE_FORMAT', lit('2007-10-04 22:23:00'), lit('%H:%i:%s')), '22:23:00'],
    ['DATE_FORMAT misc', fn('DATE_FORMAT', lit('1900-10-04 22:23:00'), lit('%D %y %a %d %m %b %j')), '4th 00 Thu 04 10 Oct 277'],
    ['DATE_FORMAT 12h', fn('DATE_FORMAT', lit('2007-10-04 00:05:09.5'), lit('%r %p %h %l %e %c %f %%')), '12:05:09 AM AM 12 12 4 10 500000 %'],
    ['DATEDIFF', fn('DATEDIFF', lit('2007-12-31 23:59:59'), lit('2007-12-30')), 1n],
    ['DATEDIFF negative', fn('DATEDIFF', lit('2010-11-30 23:59:59'), lit('2010-12-31')), -31n],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });

  const col0 = (name: string): Expr => ({ kind: 'column', name });
  test.each<[string, Expr, unknown]>([
    ['DATE_ADD day', fn('DATE_ADD', d('2018-05-01'), interval(lit(1n), 'DAY')), 'DateTime:2018-05-02'],
    ['DATE_SUB year', fn('DATE_SUB', d('2018-05-01'), interval(lit(1n), 'YEAR')), 'DateTime:2017-05-01'],
    ['DATE_ADD month clamps', fn('DATE_ADD', d('2020-01-31'), interval(lit(1n), 'MONTH')), 'DateTime:2020-02-29'],
    ['DATE_ADD second on datetime', fn('DATE_ADD', dt(2020, 12, 31, 23, 59, 59), interval(lit(1n), 'SECOND')), 'DateTime:2021-01-01 00:00:00'],
    ['DATE_ADD hour on date -> datetime', fn('DATE_ADD', d('2020-01-01'), interval(lit(2n), 'HOUR')), 'DateTime:2020-01-01 02:00:00'],
    ['DATE_ADD string arg -> string', fn('DATE_ADD', lit('2018-05-01'), interval(lit(1n), 'DAY')), '2018-05-02'],
    ["DATE_ADD '1:1' MINUTE_SECOND", fn('DATE_ADD', lit('2100-12-31 23:59:59'), interval(lit('1:1'), 'MINUTE_SECOND')), '2101-01-01 00:01:00'],
    ["DATE_SUB '1 1:1:1' DAY_SECOND", fn('DATE_SUB', lit('2025-01-01 00:00:00'), interval(lit('1 1:1:1'), 'DAY_SECOND')), '2024-12-30 22:58:59'],
    ["DATE_ADD '-1 10' DAY_HOUR", fn('DATE_ADD', lit('1900-01-01 00:00:00'), interval(lit('-1 10'), 'DAY_HOUR')), '1899-12-30 14:00:00'],
    ['DATE_ADD 1.5 SECOND', fn('DATE_ADD', dt(2020, 1, 1), interval(lit(dec('1.5')), 'SECOND')), 'DateTime:2020-01-01 00:00:01.500000'],
    ['DATE_ADD WEEK', fn('DATE_ADD', d('2020-01-01'), interval(lit(2n), 'WEEK')), 'DateTime:2020-01-15'],
    ['DATE_ADD QUARTER', fn('DATE_ADD', d('2020-11-30'), interval(lit(1n), 'QUARTER')), 'DateTime:2021-02-28'],
    ["DATE_ADD YEAR_MONTH", fn('DATE_ADD', d('2020-01-15'), interval(lit('1-2'), 'YEAR_MONTH')), 'DateTime:2021-03-15'],
    ['ADDDATE days form', fn('ADDDATE', d('2008-01-02'), lit(31n)), 'DateTime:2008-02-02'],
    ['SUBDATE interval', fn('SUBDATE', d('2008-01-02'), interval(lit(31n), 'DAY')), 'DateTime:2007-12-02'],
    ['dt + INTERVAL', bin('+', col('dt'), interval(lit(1n), 'DAY')), 'DateTime:2020-02-01 10:00:00'],
    ['INTERVAL + dt', bin('+', interval(lit(1n), 'DAY'), col('dt')), 'DateTime:2020-02-01 10:00:00'],
    ['dt - INTERVAL', bin('-', col('dt'), interval(lit(1n), 'MONTH')), 'DateTime:2019-12-31 10:00:00'],
    ['NULL interval', fn('DATE_ADD', col('dt'), interval(NULL, 'DAY')), null],
    ['overflow -> NULL', fn('DATE_ADD', d('9999-12-31'), interval(lit(1n), 'DAY')), null],
    ['TIMESTAMPDIFF MONTH', fn('TIMESTAMPDIFF', col0('MONTH'), lit('2003-02-01'), lit('2003-05-01')), 3n],
    ['TIMESTAMPDIFF YEAR', fn('TIMESTAMPDIFF', col0('YEAR'), lit('2002-05-01'), lit('2001-01-01')), -1n],
    ['TIMESTAMPDIFF MINUTE', fn('TIMESTAMPDIFF', lit('MINUTE'), lit('2003-02-01'), lit('2003-05-01 12:05:55')), 128885n],
    ['TIMESTAMPDIFF MONTH partial', fn('TIMESTAMPDIFF', col0('MONTH'), lit('2003-01-31'), lit('2003-02-28')), 0n],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });

  test('TIME literal helpers', () => {
    expect(show(run(fn('TIME', lit('2003-12-31 01:02:03'))))).toBe('Duration:01:02:03');
    expect(show(run(fn('HOUR', lit(new Duration(-3_600_000_000n * 30n)))))).toBe(30n);
  });
});
