import { describe, expect, it } from 'vitest';
import { likeMatcher } from '../../../src/sql/session/show-filter.js';
import { normalizeIsolation, timeZoneOffsetMinutes } from '../../../src/sql/session/variable-values.js';
import { hashPassword } from '../../../src/sql/session/users.js';
import { collationForId } from '../../../src/sql/session/charset.js';
import { Diagnostics } from '../../../src/sql/session/diagnostics.js';

describe('session helpers', () => {
  it('LIKE patterns for SHOW', () => {
    const m = likeMatcher('sb\\_t%');
    expect(m('sb_test1')).toBe(true);
    expect(m('SB_T')).toBe(true);
    expect(m('sbxtest')).toBe(false);
    expect(likeMatcher('a_c')('abc')).toBe(true);
    expect(likeMatcher('a.c')('abc')).toBe(false);
  });

  it('isolation level spellings', () => {
    expect(normalizeIsolation('read committed')).toBe('READ-COMMITTED');
    expect(normalizeIsolation('REPEATABLE_READ')).toBe('REPEATABLE-READ');
    expect(normalizeIsolation('snapshot')).toBeUndefined();
  });

  it('time zone offsets', () => {
    expect(timeZoneOffsetMinutes('+00:00')).toBe(0);
    expect(timeZoneOffsetMinutes('-05:30')).toBe(-330);
    expect(timeZoneOffsetMinutes('+15:00')).toBeUndefined();
  });

  it('password hashes: empty for the empty password, double SHA otherwise', () => {
    expect(hashPassword('').nativeHash.length).toBe(0);
    // SHA1(SHA1('root')) as stored in mysql.user (without the leading '*').
    expect(Buffer.from(hashPassword('root').nativeHash).toString('hex').toUpperCase()).toBe('81F5E21E35407D884A6CD4A731AEBFB6AF209E1B');
  });

  it('handshake collation ids', () => {
    expect(collationForId(45)).toMatchObject({ charset: 'utf8mb4', name: 'utf8mb4_general_ci' });
    expect(collationForId(33)).toMatchObject({ charset: 'utf8mb3' });
    expect(collationForId(255).name).toBe('utf8mb4_0900_ai_ci');
  });

  it('diagnostics cap and restore', () => {
    const d = new Diagnostics(() => 2);
    d.add('Warning', 1, 'a');
    const mark = d.mark();
    d.add('Warning', 2, 'b');
    d.add('Warning', 3, 'c');
    expect(d.list()).toHaveLength(2);
    expect(d.warningCount()).toBe(3);
    d.restore(mark);
    expect(d.list()).toHaveLength(1);
  });
});
