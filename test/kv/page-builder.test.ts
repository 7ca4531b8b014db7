import { describe, expect, it } from 'vitest';
import { PageBuilder } from '../../src/kv/embedded/page-builder.js';

function build(pb: PageBuilder, pieces: Uint8Array[]): Uint8Array[] {
  pb.reset();
  for (const p of pieces) pb.append(p, 0, p.length);
  return pb.finish();
}

const piece = (len: number, seed: number): Uint8Array => Uint8Array.from({ length: len }, (_, i) => (seed + i * 7) & 0xff);

describe('PageBuilder', () => {
  for (const [name, sizes] of [
    ['small page (slab)', [3, 0, 19, 40]],
    ['large page (own allocation)', [19, 190, 19, 190, 19, 190, 600]],
  ] as const) {
    it(`returns exact, independent copies: ${name}`, () => {
      const pb = new PageBuilder();
      const pieces = sizes.map((n, i) => piece(n, i * 31));
      const views = build(pb, pieces);
      expect(views.map((v) => [...v])).toEqual(pieces.map((p) => [...p]));
      const flipped = pieces.map((p) => p.map((b) => b ^ 0xff));
      const again = build(pb, flipped);
      // a later page never reuses an earlier page's bytes
      expect(views.map((v) => [...v])).toEqual(pieces.map((p) => [...p]));
      expect(again.map((v) => [...v])).toEqual(flipped.map((p) => [...p]));
      if (views.length > 2) {
        (views[0] as Uint8Array).fill(0xaa);
        expect([...(views[1] as Uint8Array)]).toEqual([...(pieces[1] as Uint8Array)]);
      }
      for (const v of views) expect(v.constructor).toBe(Uint8Array);
    });
  }
});
