import { describe, expect, test } from 'vitest';
import type { Expr } from '../../../src/sql/parse/ast.js';
import { inferType } from '../../../src/sql/expr/index.js';
import { DEFAULT_COLLATION, formatColumnType } from '../../../src/types/index.js';
import { bin, col, dec, errorOf, fn, interval, lit, NULL, param, scope, T } from './helpers.js';

const agg = (name: Extract<Expr, { kind: 'agg' }>['name'], arg: Expr | null): Expr => ({ kind: 'agg', name, arg, distinct: false });
const v = (name: string, s: 'session' | 'default' | 'global' | 'user' = 'default'): Expr => ({ kind: 'variable', scope: s, name });

function typed(e: Expr): string {
  const { type, notNull } = inferType(e, scope);
  const len = type.kind === 'bigint' || type.kind === 'varchar' ? `/${type.length}` : '';
  return `${formatColumnType(type)}${len}${notNull ? ' not null' : ''}`;
}

describe('inferType', () => {
  test.each<[string, Expr, string]>([
    // CLI / driver connect expressions
    ['SELECT 1', lit(1n), 'bigint/1 not null'],
    ['SELECT 123', lit(123n), 'bigint/3 not null'],
    ['SELECT -1 literal', lit(-1n), 'bigint/2 not null'],
    ['1+1', bin('+', lit(1n), lit(1n)), 'bigint/2 not null'],
    ["'abc'", lit('abc'), 'varchar(3)/3 not null'],
    ['NULL', NULL, 'null'],
    ['1.50 (decimal literal)', lit(dec('1.5')), 'decimal(2,1) not null'],
    ['1e3', lit(1000), 'double not null'],
    ['DATABASE()', fn('DATABASE'), 'varchar(64)/64'],
    ['VERSION()', fn('VERSION'), 'varchar(64)/64 not null'],
    ['USER()', fn('USER'), 'varchar(288)/288 not null'],
    ['CONNECTION_ID()', fn('CONNECTION_ID'), 'bigint unsigned/21 not null'],
    ['LAST_INSERT_ID()', fn('LAST_INSERT_ID'), 'bigint unsigned/21 not null'],
    ['@@version_comment', v('version_comment'), 'varchar(1024)/1024'],
    ['@@max_allowed_packet', v('max_allowed_packet'), 'bigint/21'],
    ['@@session.autocommit', v('autocommit', 'session'), 'bigint/21'],
    ['@@character_set_client', v('character_set_client'), 'varchar(1024)/1024'],
    ['@x (user)', v('x', 'user'), 'varchar(255)/255'],
    ['NOW()', fn('NOW'), 'datetime not null'],
    ['NOW(6)', fn('NOW', lit(6n)), 'datetime(6) not null'],
    ['CURDATE()', fn('CURDATE'), 'date not null'],
    // sysbench expressions
    ['c (column)', col('c'), 'char(120) not null'],
    ['k+1', bin('+', col('k'), lit(1n)), 'bigint/12 not null'],
    ['id = ?', bin('=', col('id'), param(0)), 'bigint/1'],
    ['id BETWEEN ? AND ?', { kind: 'between', expr: col('id'), low: param(0), high: param(1), not: false }, 'bigint/1'],
    ['id BETWEEN 1 AND 2', { kind: 'between', expr: col('id'), low: lit(1n), high: lit(2n), not: false }, 'bigint/1 not null'],
    ['SUM(k)', agg('SUM', col('k')), 'decimal(32,0)'],
    ['COUNT(*)', agg('COUNT', null), 'bigint/21 not null'],
    ['AVG(k)', agg('AVG', col('k')), 'decimal(14,4)'],
    ['MAX(c)', agg('MAX', col('c')), 'char(120)'],
    // operators and functions
    ['k = 1', bin('=', col('k'), lit(1n)), 'bigint/1 not null'],
    ['n = 1 (nullable)', bin('=', col('n'), lit(1n)), 'bigint/1'],
    ['n <=> 1', bin('<=>', col('n'), lit(1n)), 'bigint/1 not null'],
    ['k AND n', bin('AND', col('k'), col('n')), 'bigint/1'],
    ['k / 2', bin('/', col('k'), lit(2n)), 'decimal(14,4)'],
    ['d * 2', bin('*', col('d'), lit(2n)), 'decimal(11,2)'],
    ['d + 1', bin('+', col('d'), lit(1n)), 'decimal(11,2)'],
    ['f + 1', bin('+', col('f'), lit(1n)), 'double'],
    ["'1' + 1", bin('+', lit('1'), lit(1n)), 'double not null'],
    ['u + 1 unsigned', bin('+', col('u'), lit(1n)), 'bigint unsigned/21'],
    ['k DIV 2', bin('DIV', col('k'), lit(2n)), 'bigint/21'],
    ['k & 1', bin('&', col('k'), lit(1n)), 'bigint unsigned/21 not null'],
    ['CONCAT(c, 1)', fn('CONCAT', col('c'), lit(1n)), 'varchar(121)/121 not null'],
    ['IFNULL(n, 0)', fn('IFNULL', col('n'), lit(0n)), 'bigint/11 not null'],
    ['COALESCE(n, d)', fn('COALESCE', col('n'), col('d')), 'decimal(12,2)'],
    ['IF(1, k, f)', fn('IF', lit(1n), col('k'), col('f')), 'double'],
    ['CASE k WHEN 1 THEN c ELSE c', { kind: 'case', operand: col('k'), whens: [{ when: lit(1n), then: col('c') }], else: col('c') }, 'varchar(120)/120 not null'],
    ['CAST(k AS CHAR(3))', { kind: 'cast', expr: col('k'), to: T.char(3) }, 'char(3) not null'],
    ['dt + INTERVAL 1 DAY', bin('+', col('dt'), interval(lit(1n), 'DAY')), 'datetime'],
    ['UNIX_TIMESTAMP()', fn('UNIX_TIMESTAMP'), 'bigint/21 not null'],
    ['ROUND(d, 1)', fn('ROUND', col('d'), lit(1n)), 'decimal(10,1)'],
    ['LENGTH(c)', fn('LENGTH', col('c')), 'bigint/10 not null'],
  ])('%s', (_name, e, expected) => {
    expect(typed(e)).toBe(expected);
  });

  test('string results carry the default collation', () => {
    expect(inferType(lit('x'), scope).type.collation).toBe(DEFAULT_COLLATION);
    expect(inferType(fn('VERSION'), scope).type.collation).toBe(DEFAULT_COLLATION);
  });

  test('params typed by their bound values when given', () => {
    expect(formatColumnType(inferType(param(0), scope, [1n]).type)).toBe('bigint');
    expect(formatColumnType(inferType(param(0), scope, ['ab']).type)).toBe('varchar(2)');
  });

  test.each<[string, Expr, string]>([
    ['unknown column', col('zz'), "1054: Unknown column 'zz' in 'field list'"],
    ['unknown function', fn('NOPE'), '1305: FUNCTION nope does not exist'],
    ['bad arity', fn('NOW', lit(1n), lit(2n)), "1582: Incorrect parameter count in the call to native function 'NOW'"],
  ])('%s', (_name, e, expected) => {
    expect(errorOf(() => inferType(e, scope))).toBe(expected);
  });
});
