/**
 * Surrogate-escape UTF-8 (src/util/surrogate-escape.ts): decode -> encode is the identity on
 * every byte sequence, valid UTF-8 decodes as usual, invalid bytes become U+DC80+byte, and the
 * row/key writer (codec/utf8.ts) writes escaped bytes back as themselves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../../src/codec/byte-writer.js';
import { decodeUtf8, writeUtf8 } from '../../src/codec/utf8.js';
import {
  decodeSurrogateEscape, encodeSurrogateEscape, firstEscapedByte, hasEscapedBytes, utf8Decode, utf8Encode,
} from '../../src/util/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('surrogate-escape UTF-8', () => {
  it('decode then encode gives back any byte sequence', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
      expect(hex(encodeSurrogateEscape(decodeSurrogateEscape(b)))).toBe(hex(b));
      expect(hex(utf8Encode(utf8Decode(b)))).toBe(hex(b));
    }), { numRuns: 2000 });
  });

  it('decodes valid UTF-8 (including U+FFFD itself) like the standard decoder', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
      const b = Buffer.from(s, 'utf8');
      expect(decodeSurrogateEscape(b)).toBe(s);
      expect(hasEscapedBytes(s)).toBe(false);
    }));
    expect(decodeSurrogateEscape(Buffer.from('a\uFFFDb\xFF'))).toBe('a\uFFFDbÿ');
    // A leading byte-order mark is text, not stripped (Buffer and plain Uint8Array alike).
    expect(decodeSurrogateEscape(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\uFEFFa');
    expect(utf8Decode(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\uFEFFa');
  });

  it('escapes each byte of an invalid sequence as U+DC80+byte', () => {
    const s = decodeSurrogateEscape(Uint8Array.from([0x61, 0xff, 0xe2, 0x82, 0x62, 0xed, 0xa0, 0x80, 0xc0, 0xaf]));
    expect([...s].map((c) => c.charCodeAt(0).toString(16))).toEqual(
      ['61', 'dcff', 'dce2', 'dc82', '62', 'dced', 'dca0', 'dc80', 'dcc0', 'dcaf']);
    expect(firstEscapedByte(s)).toBe(1);
    expect(hasEscapedBytes(s)).toBe(true);
    expect(firstEscapedByte('😀x')).toBe(-1);
  });

  it('encodes a surrogate pair next to escaped bytes correctly', () => {
    const b = Uint8Array.from([0xf0, 0x9f, 0x98, 0x80, 0x80, 0xf0, 0x9f, 0x98, 0x80]);
    expect(hex(encodeSurrogateEscape(decodeSurrogateEscape(b)))).toBe(hex(b));
  });

  it('writeUtf8 / decodeUtf8 round-trip escaped bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 80 }), (b) => {
      const w = new ByteWriter();
      writeUtf8(w, decodeSurrogateEscape(b));
      const out = w.finish();
      expect(hex(out)).toBe(hex(b));
      expect(decodeUtf8(out, 0, out.length)).toBe(decodeSurrogateEscape(b));
    }));
  });
});
