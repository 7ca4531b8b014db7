import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/codec/utf8.js';
import { decodeSurrogateEscape } from '../../src/util/index.js';

/** Copies `bytes` into the middle of a larger plain Uint8Array (like a scan page view). */
function embed(bytes: Uint8Array, pad: number): { buf: Uint8Array; start: number; end: number } {
  const backing = new Uint8Array(bytes.length + 2 * pad + 3);
  backing.set(bytes, pad + 3);
  return { buf: new Uint8Array(backing.buffer, 3), start: pad, end: pad + bytes.length };
}

describe('decodeUtf8', () => {
  it('decodes long ASCII, UTF-8 and invalid bytes exactly like the surrogate-escape decoder', () => {
    const bytesArb = fc.oneof(
      fc.uint8Array({ minLength: 0, maxLength: 200 }),
      fc.string({ maxLength: 150 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
      fc.array(fc.integer({ min: 0, max: 127 }), { maxLength: 300 }).map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytesArb, fc.integer({ min: 0, max: 9 }), (bytes, pad) => {
        const { buf, start, end } = embed(bytes, pad);
        expect(decodeUtf8(buf, start, end)).toBe(decodeSurrogateEscape(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the ASCII path for a sysbench-like value in a shared page', () => {
    const c = '31006815345-44477802342-90230811684-93068691351-32674769540-55816254165-39452753356-20146007276-53689876050-89501332042';
    const { buf, start, end } = embed(Buffer.from(c), 17);
    expect(decodeUtf8(buf, start, end)).toBe(c);
    const tail = embed(Buffer.from(`${c}é`), 5);
    expect(decodeUtf8(tail.buf, tail.start, tail.end)).toBe(`${c}é`);
  });

  it('keeps a leading BOM and a stored U+FFFD, and escapes invalid bytes, in long text', () => {
    const c = 'x'.repeat(40);
    for (const text of [`\uFEFF${c}`, `${c}\uFFFD${c}`, `\uFFFD${c}`]) {
      const { buf, start, end } = embed(Buffer.from(text, 'utf8'), 3);
      expect(decodeUtf8(buf, start, end)).toBe(text);
    }
    const bad = Buffer.concat([Buffer.from(c), Buffer.from([0xff, 0xc3]), Buffer.from(c)]);
    const { buf, start, end } = embed(bad, 2);
    expect(decodeUtf8(buf, start, end)).toBe(decodeSurrogateEscape(bad));
    expect(decodeUtf8(buf, start, end)).toBe(`${c}\udcff\udcc3${c}`);
  });
});
