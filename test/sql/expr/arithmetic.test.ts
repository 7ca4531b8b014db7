import { describe, expect, test } from 'vitest';
import type { Expr } from '../../../src/sql/parse/ast.js';
import { bin, col, dec, errorOf, fakeContext, lit, NULL, param, run, show } from './helpers.js';

const neg = (operand: Expr): Expr => ({ kind: 'unary', op: '-', operand });
const MAX = 9223372036854775807n;

describe('arithmetic results', () => {
  test.each<[string, Expr, unknown]>([
    ['1 + 1', bin('+', lit(1n), lit(1n)), 2n],
    ['k * 3', bin('*', col('k'), lit(3n)), 15n],
    ['k - 10', bin('-', col('k'), lit(10n)), -5n],
    ['int + decimal', bin('+', lit(1n), lit(dec('1.5'))), 'dec:2.5'],
    ['decimal * decimal exact', bin('*', lit(dec('0.1')), lit(dec('0.2'))), 'dec:0.02'],
    ['decimal + decimal exact', bin('+', lit(dec('0.1')), lit(dec('0.2'))), 'dec:0.3'],
    ['double + int', bin('+', lit(0.5), lit(1n)), 1.5],
    ["string + int -> double", bin('+', lit('1.5abc'), lit(1n)), 2.5],
    ["'abc' + 1", bin('+', lit('abc'), lit(1n)), 1],
    ['NULL + 1', bin('+', NULL, lit(1n)), null],
    ['1 / 3 -> scale 4', bin('/', lit(1n), lit(3n)), 'dec:0.3333'],
    ['2 / 3 rounds', bin('/', lit(2n), lit(3n)), 'dec:0.6667'],
    ['d(12.34) / 3 scale 6', bin('/', col('d'), lit(3n)), 'dec:4.113333'],
    // decimal.js keeps no trailing zeros: the literal 1.0 has scale 0 here (MySQL: 0.33333).
    ['1.0 / 3 (literal scale lost)', bin('/', lit(dec('1.0')), lit(3n)), 'dec:0.3333'],
    ['1.5 / 3 scale 5', bin('/', lit(dec('1.5')), lit(3n)), 'dec:0.5'],
    ['double / int', bin('/', lit(1.0), lit(4n)), 0.25],
    ['param / param derives scale', bin('/', param(0), param(1)), 'dec:0.5'],
    ['7 DIV 2', bin('DIV', lit(7n), lit(2n)), 3n],
    ['-7 DIV 2 truncates', bin('DIV', lit(-7n), lit(2n)), -3n],
    ['7.5 DIV 2', bin('DIV', lit(dec('7.5')), lit(2n)), 3n],
    ['7 % 3', bin('%', lit(7n), lit(3n)), 1n],
    ['-7 % 3', bin('%', lit(-7n), lit(3n)), -1n],
    ['7.5 % 2', bin('%', lit(dec('7.5')), lit(2n)), 'dec:1.5'],
    ['7.5e0 % 2', bin('%', lit(7.5), lit(2n)), 1.5],
    ['-k', neg(col('k')), -5n],
    ['-d', neg(col('d')), 'dec:-12.34'],
    ["-'2'", neg(lit('2')), -2],
    ['-(-9223372036854775808)', neg(lit(9223372036854775808n)), -9223372036854775808n],
    ['u - 1 (unsigned)', bin('-', col('u'), lit(1n)), 18446744073709551614n],
    ['big unsigned literal + 1', bin('+', lit(MAX + 1n), lit(1n)), MAX + 2n],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e, fakeContext({ params: [1n, 2n] })))).toEqual(expected);
  });
});

describe('division and modulo by zero', () => {
  test.each<[string, Expr]>([
    ['1 / 0', bin('/', lit(1n), lit(0n))],
    ['1.5 / 0.0', bin('/', lit(dec('1.5')), lit(dec('0.0')))],
    ['1e0 / 0', bin('/', lit(1), lit(0n))],
    ['1 DIV 0', bin('DIV', lit(1n), lit(0n))],
    ['1 % 0', bin('%', lit(1n), lit(0n))],
    ["1 / 'x'", bin('/', lit(1n), lit('x'))],
  ])('%s -> NULL + warning 1365', (_name, e) => {
    const ctx = fakeContext();
    expect(run(e, ctx)).toBeNull();
    expect(ctx.warnings).toEqual([{ code: 1365, message: 'Division by 0' }]);
  });
});

describe('overflow', () => {
  test.each<[string, Expr, string]>([
    ['max + 1', bin('+', lit(MAX), lit(1n)), "1690: BIGINT value is out of range in '(9223372036854775807 + 1)'"],
    ['min - 1', bin('-', neg(lit(MAX)), lit(2n)), "1690: BIGINT value is out of range in '(-(9223372036854775807) - 2)'"],
    ['max * 2', bin('*', lit(MAX), lit(2n)), "1690: BIGINT value is out of range in '(9223372036854775807 * 2)'"],
    ['unsigned col + 1', bin('+', col('u'), lit(1n)), "1690: BIGINT UNSIGNED value is out of range in '(`u` + 1)'"],
    ['unsigned - bigger', bin('-', col('k', 't'), col('u')), "1690: BIGINT UNSIGNED value is out of range in '(`t`.`k` - `u`)'"],
    ['unsigned literal - 2^64', bin('-', lit(0n), lit(18446744073709551615n)), "1690: BIGINT UNSIGNED value is out of range in '(0 - 18446744073709551615)'"],
    ['-(2^64-1)', neg(lit(18446744073709551615n)), "1690: BIGINT value is out of range in '-(18446744073709551615)'"],
    ['double overflow', bin('*', lit(1e308), lit(10n)), "1690: DOUBLE value is out of range in '(1e308 * 10)'"],
  ])('%s', (_name, e, expected) => {
    expect(errorOf(() => run(e))).toBe(expected);
  });
});

describe('bit operations (unsigned 64-bit)', () => {
  test.each<[string, Expr, unknown]>([
    ['5 & 3', bin('&', lit(5n), lit(3n)), 1n],
    ['5 | 3', bin('|', lit(5n), lit(3n)), 7n],
    ['5 ^ 3', bin('^', lit(5n), lit(3n)), 6n],
    ['1 << 63', bin('<<', lit(1n), lit(63n)), 9223372036854775808n],
    ['1 << 64', bin('<<', lit(1n), lit(64n)), 0n],
    ['-1 >> 60', bin('>>', lit(-1n), lit(60n)), 15n],
    ['~0', { kind: 'unary', op: '~', operand: lit(0n) }, 18446744073709551615n],
    ['-1 & 255', bin('&', lit(-1n), lit(255n)), 255n],
    ["'7' | 8", bin('|', lit('7'), lit(8n)), 15n],
    ['2.5 | 0 rounds', bin('|', lit(dec('2.5')), lit(0n)), 3n],
    ['NULL & 1', bin('&', NULL, lit(1n)), null],
  ])('%s', (_name, e, expected) => {
    expect(show(run(e))).toEqual(expected);
  });
});
