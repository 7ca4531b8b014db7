import { describe, expect, test } from 'vitest';
import { valueToString } from '../../../src/sql/expr/index.js';
import { DateTime, Duration, type Value } from '../../../src/types/index.js';
import { dec } from './helpers.js';

describe('valueToString', () => {
  test.each<[string, Value, string]>([
    ['NULL', null, ''],
    ['bigint', -12n, '-12'],
    ['unsigned max', 18446744073709551615n, '18446744073709551615'],
    ['decimal', dec('12.34'), '12.34'],
    ['decimal negative small', dec('-0.001'), '-0.001'],
    ['decimal huge stays plain', dec('123456789012345678901234567890.5'), '123456789012345678901234567890.5'],
    ['double 0.1', 0.1, '0.1'],
    ['double 100', 100, '100'],
    ['double 1e20', 1e20, '1e20'],
    ['double 1e15', 1e15, '1e15'],
    ['double 2^50', 2 ** 50, '1125899906842624'.length === 16 ? '1.125899906842624e15' : ''],
    ['double 562949953421312', 562949953421312, '562949953421312'],
    ['double 1e-15', 1e-15, '0.000000000000001'],
    ['double 1e-16', 1e-16, '1e-16'],
    ['double -1.5', -1.5, '-1.5'],
    ['double 0', 0, '0'],
    ['double 1/3', 1 / 3, '0.3333333333333333'],
    ['double 1.2345678901234568e17', 123456789012345678, '1.2345678901234568e17'],
    ['date', new DateTime('date', 2020, 1, 2), '2020-01-02'],
    ['datetime fsp 3', new DateTime('datetime', 2020, 1, 2, 3, 4, 5, 123456, 3), '2020-01-02 03:04:05.123'],
    ['time negative', new Duration(-3_723_000_000n), '-01:02:03'],
    ['bytes utf8', new Uint8Array([0xe6, 0x97, 0xa5]), '日'],
    ['string', 'x', 'x'],
  ])('%s', (_name, v, expected) => {
    expect(valueToString(v)).toBe(expected);
  });
});
