/** A small seeded PRNG (mulberry32) so a bank run's choices can be reproduced from its seed. */
export interface Random {
  /** A whole number in [0, n). */
  below(n: number): number;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    below(n: number): number {
      return Math.floor(next() * n);
    },
  };
}
