import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Mutation } from '../../src/kv/index.js';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { LoneCommits } from '../../src/kv/embedded/lone-commits.js';
import { utf8Encode } from '../../src/util/index.js';
import { expectOneOfEightWins, readText, tempDir } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);
const put = (key: string, value: string): Mutation => ({ op: 'put', key: b(key), value: b(value) });

/** `turns` event-loop turns with one take() each; the last turn's answer. */
async function soloTurns(lone: LoneCommits, turns: number): Promise<boolean> {
  let last = false;
  for (let i = 0; i < turns; i++) {
    last = lone.take();
    await nextTurn();
  }
  return last;
}

describe('LoneCommits: when a commit may run synchronously', () => {
  it('only after 16 turns of one commit each, and only the first commit of a turn', async () => {
    const lone = new LoneCommits();
    expect(await soloTurns(lone, 16)).toBe(false);
    expect(lone.take()).toBe(true);
    expect(lone.take()).toBe(false); // a second commit in the same turn
    await nextTurn();
    // That turn held two: the run starts again.
    expect(await soloTurns(lone, 16)).toBe(false);
    expect(lone.take()).toBe(true);
    await nextTurn();
  });

  it('never while an asynchronous write of the process is in flight', async () => {
    const lone = new LoneCommits();
    await soloTurns(lone, 16);
    let finish = (): void => undefined;
    const pending = lone.queued(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(lone.take()).toBe(false);
    await nextTurn();
    finish();
    await pending;
    expect(lone.take()).toBe(true);
    await nextTurn();
    // A failed write is no longer in flight either.
    await expect(lone.queued(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(lone.take()).toBe(true);
    await nextTurn();
  });
});

describe('embedded store: lone commits (synchronous) and queued ones interleaved', () => {
  it('keeps first-committer-wins, commit order and every acknowledged write', async () => {
    const dir = tempDir('shale-lone-');
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
    try {
      // One client: after 16 turns its commits run synchronously.
      const stamps: bigint[] = [];
      for (let i = 0; i < 40; i++) {
        const snap = await store.snapshot();
        stamps.push(await store.commit({ startTs: snap.startTs, mutations: [put(`solo${i}`, String(i))], checkKeys: [] }));
        snap.release();
        await nextTurn();
      }
      expect([...stamps].sort((x, y) => (x < y ? -1 : 1))).toEqual(stamps);
      expect(new Set(stamps).size).toBe(40);
      // Then eight at once from one snapshot on one key (the first may run synchronously, the
      // rest queue behind it): exactly one wins, and it is the value stored.
      const snap = await store.snapshot();
      await expectOneOfEightWins(store, snap.startTs);
      snap.release();
      // A lone commit from a snapshot older than that winner conflicts too.
      for (let i = 0; i < 20; i++) {
        const s = await store.snapshot();
        await store.commit({ startTs: s.startTs, mutations: [put(`again${i}`, 'x')], checkKeys: [] });
        s.release();
        await nextTurn();
      }
      await expect(store.commit({ startTs: snap.startTs, mutations: [put('k', 'late')], checkKeys: [] })).rejects.toMatchObject({ errno: 1213 });
      for (let i = 0; i < 40; i++) expect(await readText(store, `solo${i}`)).toBe(String(i));
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
