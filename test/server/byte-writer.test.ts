import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../../src/server/byte-writer.js';

/** The reference encoding: lenenc length of the UTF-8 bytes, then the bytes. */
function reference(s: string): Buffer {
  const w = new ByteWriter(16);
  const bytes = Buffer.from(s, 'utf8');
  w.lenencInt(bytes.length);
  w.bytes(bytes);
  return w.buf.subarray(0, w.pos);
}

function encoded(s: string, before = 0): Buffer {
  const w = new ByteWriter(8);
  w.zeros(before);
  w.lenencString(s);
  return w.buf.subarray(before, w.pos);
}

describe('ByteWriter.lenencString', () => {
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['ascii 250', 'a'.repeat(250)],
    ['ascii 251', 'b'.repeat(251)],
    ['utf8 crossing 251 bytes', 'é'.repeat(126)],
    ['3-byte chars', '€'.repeat(90)],
    ['astral', '😀x'.repeat(70)],
    ['65535 bytes', 'c'.repeat(0xffff)],
    ['65536 bytes', 'd'.repeat(0x10000)],
    ['2^24 bytes', 'e'.repeat(0x1000000)],
  ];
  for (const [name, s] of cases) {
    it(`matches the byteLength-first encoding: ${name}`, () => {
      expect(encoded(s).equals(reference(s))).toBe(true);
      expect(encoded(s, 13).equals(reference(s))).toBe(true);
    });
  }

  it('keeps escaped bytes (lone surrogates) as the original bytes', () => {
    const w = new ByteWriter(8);
    w.lenencString('a\udcffb');
    expect([...w.buf.subarray(0, w.pos)]).toEqual([3, 0x61, 0xff, 0x62]);
  });
});

describe('ByteWriter.zeros', () => {
  it('clears exactly n bytes of a reused buffer, short (loop) and long (fill) runs alike', () => {
    const w = new ByteWriter(8);
    w.bytes(new Uint8Array(40).fill(0xff));
    w.pos = 0;
    w.zeros(1);
    w.zeros(2);
    w.zeros(16);
    w.zeros(17);
    expect(w.pos).toBe(36);
    expect([...w.buf.subarray(0, 36)].every((b) => b === 0)).toBe(true);
    expect([...w.buf.subarray(36, 40)]).toEqual([0xff, 0xff, 0xff, 0xff]);
  });
});
