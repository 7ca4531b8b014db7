import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLLATIONS, compareCodePoints } from '../../src/types/index.js';

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);
/** Mostly ASCII (every ASCII class incl. controls and spaces) with some non-ASCII tails and marks. */
const unit = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) },
  { weight: 3, arbitrary: fc.constantFrom('a', 'A', ' ', 'z', 'Z', '_', '0') },
  { weight: 1, arbitrary: fc.constantFrom('\u0301', 'é', 'ß', 'ﬁ', 'Ж', '😀', 'ſ', '\u00a0') },
);
const text = fc.array(unit, { maxLength: 10 }).map((cs) => cs.join(''));

describe('collation ASCII fast paths', () => {
  for (const c of COLLATIONS.filter((x) => !x.binary)) {
    it(`${c.name}: compare agrees with comparing full weights`, () => {
      fc.assert(
        fc.property(text, text, (a, b) => {
          expect(sign(c.compare(a, b))).toBe(sign(compareCodePoints(c.weight(a), c.weight(b))));
        }),
        { numRuns: 3000 },
      );
    });
  }

  for (const c of COLLATIONS.filter((x) => !x.binary)) {
    it(`${c.name}: different sort prefixes order strings as compare does; quickCompare agrees when it answers`, () => {
      fc.assert(
        fc.property(text, text, (a, b) => {
          const full = sign(c.compare(a, b));
          const pa = c.sortPrefix(a);
          const pb = c.sortPrefix(b);
          if (pa !== pb && !Number.isNaN(pa) && !Number.isNaN(pb)) expect(sign(pa - pb)).toBe(full);
          const quick = c.quickCompare(a, b);
          if (quick !== undefined) expect(sign(quick)).toBe(full);
        }),
        { numRuns: 3000 },
      );
    });
  }

  it('sort prefixes: NaN for a non-ASCII start and for binary collations, decisive on ASCII starts', () => {
    const ai = COLLATIONS.find((x) => x.name === 'utf8mb4_0900_ai_ci');
    const general = COLLATIONS.find((x) => x.name === 'utf8mb4_general_ci');
    const bin = COLLATIONS.find((x) => x.name === 'utf8mb4_bin');
    expect(ai?.sortPrefix('é')).toBeNaN();
    expect(ai?.sortPrefix('abcdefé')).not.toBeNaN();
    expect(bin?.sortPrefix('abc')).toBeNaN();
    expect(ai?.sortPrefix('ABC')).toBe(ai?.sortPrefix('abc'));
    expect(ai?.sortPrefix('ab') ?? 0).toBeLessThan(ai?.sortPrefix('ab\t') ?? 0);
    // PAD SPACE drops trailing spaces first; NO PAD weighs them.
    expect(general?.sortPrefix('ab  ')).toBe(general?.sortPrefix('ab'));
    expect(ai?.sortPrefix('ab ')).not.toBe(ai?.sortPrefix('ab'));
    // sysbench's c values differ in the first digits.
    expect(ai?.sortPrefix('31006815345-4') ?? 0).toBeGreaterThan(ai?.sortPrefix('29006815345-4') ?? 0);
  });

  it('ASCII weights of the uca family map case and order punctuation first', () => {
    const c = COLLATIONS.find((x) => x.name === 'utf8mb4_0900_ai_ci');
    expect(c?.weight('Abc')).toBe(c?.weight('aBC'));
    expect(c?.compare('_x', 'ax')).toBe(-1);
    expect(c?.compare('a', 'a\u0301')).toBe(0);
    expect(c?.compare('ab', 'a\u0301c')).toBe(-1);
    expect(c?.compare('sbtest', 'SBTEST')).toBe(0);
  });

  it('PAD SPACE collations ignore trailing spaces on the fast path', () => {
    const c = COLLATIONS.find((x) => x.name === 'utf8mb4_general_ci');
    expect(c?.compare('ab  ', 'AB')).toBe(0);
    expect(c?.compare('ab ', 'ab!')).toBe(-1);
  });
});

describe('collation ASCII weights of long strings', () => {
  it('match the general path beyond the scratch size', () => {
    const c = COLLATIONS.find((x) => x.name === 'utf8mb4_0900_ai_ci');
    const long = 'Ab_-9'.repeat(30000);
    const w = c?.weight(long) ?? '';
    expect(w.length).toBe(long.length);
    expect(w).toBe(c?.weight(long.toLowerCase()));
    expect(c?.weight('x'.repeat(10))).toBe(c?.weight('X'.repeat(10)));
    expect(c?.compare(long, `${long}a`)).toBe(-1);
  });
});
