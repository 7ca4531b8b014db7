/** The per-statement Cancellation: KILL (1317), deadline (3024), yielding the event loop. */
import { describe, expect, it } from 'vitest';
import { Cancellation, YIELD_EVERY_MS } from '../../../src/sql/exec/cancellation.js';

function clock(start = 1000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('Cancellation', () => {
  it('check() passes until interrupted, then throws 1317', () => {
    const c = new Cancellation(0);
    expect(() => c.check()).not.toThrow();
    c.interrupt('killed');
    expect(c.interrupted).toBe('killed');
    expect(() => c.check()).toThrow(expect.objectContaining({ errno: 1317, sqlState: '70100', message: 'Query execution was interrupted' }));
  });

  it('throws 3024 once the deadline has passed; the first reason wins', () => {
    const t = clock();
    const c = new Cancellation(50, t.now);
    t.advance(49);
    expect(() => c.check()).not.toThrow();
    t.advance(1);
    expect(() => c.check()).toThrow(
      expect.objectContaining({ errno: 3024, message: 'Query execution was interrupted, maximum statement execution time exceeded' }),
    );
    c.interrupt('killed');
    expect(c.interrupted).toBe('timeout');
  });

  it('no deadline when the timeout is 0', () => {
    const t = clock();
    const c = new Cancellation(0, t.now);
    t.advance(1e9);
    expect(() => c.check()).not.toThrow();
  });

  it('pause() yields the event loop only after YIELD_EVERY_MS and checks again after the turn', async () => {
    const t = clock();
    const c = new Cancellation(0, t.now);
    expect(c.pause()).toBeNull();
    t.advance(YIELD_EVERY_MS);
    const paused = c.pause();
    expect(paused).toBeInstanceOf(Promise);
    c.interrupt('killed');
    await expect(paused).rejects.toMatchObject({ errno: 1317 });
  });

  it('a yield lets a timer (another connection) run in between', async () => {
    const c = new Cancellation(0);
    let ran = false;
    setImmediate(() => {
      ran = true;
      c.interrupt('killed');
    });
    const deadline = performance.now() + 1000;
    let error: unknown;
    try {
      while (performance.now() < deadline) {
        const p = c.pause();
        if (p !== null) await p;
      }
    } catch (err) {
      error = err;
    }
    expect(ran).toBe(true);
    expect(error).toMatchObject({ errno: 1317 });
  });
});
