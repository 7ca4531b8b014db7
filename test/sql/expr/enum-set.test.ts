import { describe, expect, it } from 'vitest';
import { makeType } from '../../../src/types/index.js';
import { enumSetNumber, enumValue, setValue } from '../../../src/sql/expr/enum-set.js';
import { bitValue } from '../../../src/sql/expr/bit-value.js';

const E = makeType('enum', { members: ['b', 'a', 'c'], length: 1 });
const S = makeType('set', { members: ['x', 'y', 'z'], length: 5 });

describe('ENUM / SET / BIT values', () => {
  it('ENUM picks members by text (collation), index or numeric text', () => {
    expect(enumValue('A', E)).toBe('a');
    expect(enumValue(3n, E)).toBe('c');
    expect(enumValue('2', E)).toBe('a');
    expect(enumValue(0n, E)).toBeNull();
    expect(enumValue('', E)).toBeNull();
    expect(enumValue('zz', E)).toBeNull();
    expect(enumSetNumber('c', E)).toBe(3n);
    expect(enumSetNumber('', E)).toBe(0n);
  });

  it('SET keeps declaration order and drops duplicates', () => {
    expect(setValue('z,X,z', S)).toEqual({ text: 'x,z', valid: true });
    expect(setValue(6n, S)).toEqual({ text: 'y,z', valid: true });
    expect(setValue('x,q', S)).toEqual({ text: 'x', valid: false });
    expect(setValue(8n, S).valid).toBe(false);
    expect(setValue('', S)).toEqual({ text: '', valid: true });
    expect(enumSetNumber('x,z', S)).toBe(5n);
  });

  it('BIT stores big-endian bytes of its width', () => {
    const B = makeType('bit', { length: 10 });
    expect(bitValue(5n, B)).toEqual({ bytes: Uint8Array.from([0, 5]), fits: true });
    expect(bitValue(Uint8Array.from([1, 2]), B)).toEqual({ bytes: Uint8Array.from([1, 2]), fits: true });
    expect(bitValue(1024n, B).fits).toBe(false);
    expect(enumSetNumber(Uint8Array.from([3, 255]), B)).toBe(1023n);
  });
});
