import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeKeyValues, FLAG_BYTES } from '../../src/codec/index.js';
import { ByteWriter } from '../../src/codec/byte-writer.js';
import { writeComparableString } from '../../src/codec/memcomparable-bytes.js';
import { COLLATIONS, collationById, findCollation, makeType, type Collation } from '../../src/types/index.js';
import { compareBytes } from '../../src/util/index.js';

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

function coll(name: string): Collation {
  const c = findCollation(name);
  if (c === undefined) throw new Error(name);
  return c;
}

const NAMES = ['utf8mb4_0900_ai_ci', 'utf8mb4_0900_as_ci', 'utf8mb4_general_ci', 'utf8mb4_unicode_ci', 'utf8mb4_bin', 'latin1_swedish_ci'];
/** Strings over a small alphabet with case, accent and space variants, so ties are frequent. */
const text = fc.array(fc.constantFrom('a', 'A', 'á', 'b', 'B', 'ß', 's', 'S', ' ', '_', '-', '1', 'é', 'E', 'ж', 'Ж', '😀', 'ﬁ'), { maxLength: 12 }).map((cs) => cs.join(''));
const anyText = fc.oneof(text, fc.string({ unit: 'grapheme', maxLength: 10 }));

describe('collation registry', () => {
  it('knows MySQL ids, pad attributes and defaults', () => {
    expect(coll('utf8mb4_0900_ai_ci')).toMatchObject({ id: 255, charset: 'utf8mb4', isDefault: true, padAttribute: 'NO PAD' });
    expect(coll('utf8mb4_general_ci')).toMatchObject({ id: 45, isDefault: false, padAttribute: 'PAD SPACE' });
    expect(coll('utf8mb4_bin')).toMatchObject({ id: 46, padAttribute: 'PAD SPACE', binary: true });
    expect(coll('binary')).toMatchObject({ id: 63, charset: 'binary', padAttribute: 'NO PAD' });
    expect(coll('UTF8_GENERAL_CI').name).toBe('utf8mb3_general_ci');
    expect(collationById(224)?.name).toBe('utf8mb4_unicode_ci');
    expect(findCollation('nope_ci')).toBeUndefined();
    expect(new Set(COLLATIONS.map((c) => c.id)).size).toBe(COLLATIONS.length);
  });
});

describe('collation comparisons', () => {
  it.each<[string, string, string, number]>([
    ['utf8mb4_0900_ai_ci', 'a', 'A', 0],
    ['utf8mb4_0900_ai_ci', 'résumé', 'RESUME', 0],
    ['utf8mb4_0900_ai_ci', 'ß', 'ss', 0],
    ['utf8mb4_0900_ai_ci', 'ﬁ', 'fi', 0],
    ['utf8mb4_0900_ai_ci', 'a', 'a ', -1],
    ['utf8mb4_0900_ai_ci', '_', 'a', -1],
    ['utf8mb4_0900_ai_ci', '_', '-', -1],
    ['utf8mb4_0900_ai_ci', '9', 'a', -1],
    ['utf8mb4_0900_ai_ci', 'Z', 'ж', -1],
    ['utf8mb4_0900_ai_ci', 'b', 'Á', 1],
    ['utf8mb4_general_ci', 'a', 'A  ', 0],
    ['utf8mb4_general_ci', 'ß', 's', 0],
    ['utf8mb4_general_ci', 'é', 'E', 0],
    ['utf8mb4_general_ci', 'a', '_', -1],
    ['utf8mb4_general_ci', '😀', '😺', 0],
    ['utf8mb4_unicode_ci', 'a ', 'A', 0],
    ['utf8mb4_unicode_ci', 'ß', 'SS', 0],
    ['utf8mb4_0900_as_ci', 'É', 'é', 0],
    ['utf8mb4_0900_as_ci', 'e', 'é', -1],
    ['utf8mb4_0900_as_ci', 'é', 'f', -1],
    ['utf8mb4_bin', 'B', 'a', -1],
    ['utf8mb4_bin', 'a', 'A', 1],
    ['utf8mb4_bin', '\u{1F600}', '\uFFFD', 1],
  ])('%s: %s vs %s', (name, a, b, want) => {
    expect(sign(coll(name).compare(a, b))).toBe(want);
  });

  it('LIKE folding keeps the character count', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        for (const c of COLLATIONS) expect(Array.from(c.likeFold(s)).length).toBe(Array.from(s).length);
      }),
    );
  });
});

describe('collation keys (memcomparable weights)', () => {
  it('utf8mb4_general_ci: a BMP character decomposing outside the BMP keeps a whole-character weight', () => {
    // U+FACF decomposes (NFD) to U+2284A; its weight once was the first half of that surrogate pair,
    // which compared above U+FFFD while its UTF-8 key equalled U+FFFD's (found by the property below).
    const type = makeType('varchar', { length: 10, collation: 'utf8mb4_general_ci' });
    const c = coll('utf8mb4_general_ci');
    const key = (s: string): Uint8Array => encodeKeyValues([s], [type]);
    for (const [a, b] of [['\ufacf', '\ufffd'], ['\ufacf', '\u{2284a}'], ['\ufacf', 'a']]) {
      expect(sign(compareBytes(key(a as string), key(b as string)))).toBe(sign(c.compare(a as string, b as string)));
    }
    expect(c.weight('\ufacf')).toBe('\ufacf');
  });

  for (const name of NAMES) {
    const type = makeType('varchar', { length: 50, collation: name });
    const c = coll(name);
    const key = (s: string): Uint8Array => encodeKeyValues([s], [type]);

    it(`${name}: key byte order is the collation order`, () => {
      fc.assert(
        fc.property(anyText, anyText, (a, b) => {
          expect(sign(compareBytes(key(a), key(b)))).toBe(sign(c.compare(a, b)));
        }),
        { numRuns: 500 },
      );
    });

    it(`${name}: equal keys exactly for equal strings, and a total order`, () => {
      fc.assert(
        fc.property(text, text, text, (a, b, d) => {
          expect(c.compare(a, b) === 0).toBe(compareBytes(key(a), key(b)) === 0);
          expect(sign(c.compare(a, b)) + sign(c.compare(b, a))).toBe(0);
          if (c.compare(a, b) <= 0 && c.compare(b, d) <= 0) expect(c.compare(a, d)).toBeLessThanOrEqual(0);
        }),
        { numRuns: 500 },
      );
    });
  }

  it('case variants share one key under _ci and differ under _bin', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,10}$/), (s) => {
        const ci = makeType('varchar', { length: 20 });
        const bin = makeType('varchar', { length: 20, collation: 'utf8mb4_bin' });
        expect(encodeKeyValues([s.toUpperCase()], [ci])).toEqual(encodeKeyValues([s], [ci]));
        expect(encodeKeyValues([s.toUpperCase()], [bin])).not.toEqual(encodeKeyValues([s], [bin]));
      }),
    );
  });
});

describe('collation keys of ASCII strings (written from the collation\'s table)', () => {
  /** The key every string had before the ASCII path: the flag, then the weight's memcomparable bytes. */
  function viaWeight(s: string, c: Collation): Uint8Array {
    const w = new ByteWriter();
    w.u8(FLAG_BYTES);
    writeComparableString(w, c.weight(s));
    return w.finish();
  }
  /** Mostly ASCII, with trailing spaces, lengths around the 8-byte groups, and now and then one non-ASCII character. */
  const mixed = fc.oneof(
    fc.array(fc.constantFrom('a', 'Z', ' ', '_', '-', '0', '9', '~', '\t', '\u007f', 'q'), { maxLength: 40 }).map((cs) => cs.join('')),
    fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom('é', 'ß', 'Ж', '😀', '\u0080'), fc.string({ maxLength: 20 })).map(([a, x, b]) => a + x + b),
  );

  it('equals the key of the collation\'s weight, for every collation (property)', () => {
    fc.assert(
      fc.property(mixed, (s) => {
        for (const c of COLLATIONS) {
          const type = makeType('varchar', { length: 100, collation: c.name });
          expect(Buffer.from(encodeKeyValues([s], [type])).toString('hex')).toBe(Buffer.from(viaWeight(s, c)).toString('hex'));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is there for every non-binary collation, and for no binary one', () => {
    for (const c of COLLATIONS) expect(c.asciiWeights !== undefined).toBe(!c.binary);
  });
});

