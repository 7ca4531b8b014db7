/**
 * ReadPins (src/kv/embedded/read-pins.ts) keeps the current group of snapshots between
 * event-loop turns while LMDB's last committed transaction id has not moved, and lets it go as
 * soon as it has (at the next snapshot, or by its check timer when no snapshot comes), or once
 * no snapshot joined it between two checks.
 */
import { describe, expect, it, vi } from 'vitest';
import { rmSync } from 'node:fs';
import { open, type Database } from 'lmdb';
import { COUNTER_KEY, type EmbeddedDbs } from '../../src/kv/embedded/commit-apply.js';
import { FreshReadTxn } from '../../src/kv/embedded/fresh-read-txn.js';
import { addonFunctions } from '../../src/kv/embedded/lmdb-build.js';
import { ReadPins } from '../../src/kv/embedded/read-pins.js';
import { encodeTs } from '../../src/kv/embedded/value-format.js';
import { tempDir } from './backends.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return done();
}

interface Pinned {
  readonly meta: Database<Buffer, string>;
  readonly fresh: FreshReadTxn;
  readonly pins: ReadPins;
}

/** Runs `body` with ReadPins over a fresh LMDB directory (with or without the add-on's transaction id), then closes and removes it. */
async function withPins(withTxnId: boolean, body: (p: Pinned) => Promise<void>): Promise<void> {
  const dir = tempDir('shale-pins-');
  const root = open<Buffer, string>({ path: dir, noSubdir: false, maxDbs: 8, noSync: true });
  try {
    const data = root.openDB<Buffer, Uint8Array>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    const meta = root.openDB<Buffer, string>({ name: 'meta', encoding: 'binary' });
    const fresh = new FreshReadTxn(data, withTxnId ? addonFunctions(root) : undefined);
    // ReadPins reads only `meta` (the commit counter) and `data` (its read txn).
    const pins = new ReadPins({ data, meta } as unknown as EmbeddedDbs, fresh, 8);
    try {
      await body({ meta, fresh, pins });
    } finally {
      pins.clear();
    }
  } finally {
    await root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('ReadPins', () => {
  it('keeps the current group between turns while nothing is committed, and lets it go after a commit', async () => {
    await withPins(true, async ({ meta, fresh, pins }) => {
      await meta.put(COUNTER_KEY, encodeTs(5n));
      const uses = vi.spyOn(fresh, 'use');
      const a = pins.lease();
      expect(a.group.startTs).toBe(5n);
      pins.end(a);
      await turn();
      await turn();
      const b = pins.lease(); // a later turn, nothing committed: the same group, no new read txn
      expect(b.group).toBe(a.group);
      expect(uses).toHaveBeenCalledTimes(1);
      pins.end(b);
      await turn();
      await meta.put(COUNTER_KEY, encodeTs(6n)); // a commit moves LMDB's last transaction id
      const c = pins.lease();
      expect(c.group).not.toBe(a.group);
      expect(c.group.startTs).toBe(6n);
      expect(a.group.held).toBe(false); // the kept group was let go at once
      expect(pins.oldestActiveStart()).toBe(6n);
      pins.end(c);
      await turn();
      expect(pins.oldestActiveStart()).toBe(6n); // kept: nothing committed since
      // A commit while no snapshot comes: the check timer lets the kept group go.
      await meta.put(COUNTER_KEY, encodeTs(7n));
      expect(await until(() => pins.oldestActiveStart() === undefined)).toBe(true);
      const d = pins.lease();
      expect(d.group.startTs).toBe(7n);
      pins.end(d);
    });
  });

  it('lets a group go as its last snapshot ends once a commit has passed it, not at the end of the turn', async () => {
    await withPins(true, async ({ meta, pins }) => {
      await meta.put(COUNTER_KEY, encodeTs(8n));
      const a = pins.lease();
      const b = pins.lease();
      expect(b.group).toBe(a.group);
      await meta.put(COUNTER_KEY, encodeTs(9n)); // e.g. the statement's own commit
      pins.end(a);
      expect(pins.oldestActiveStart()).toBe(8n); // b still reads the group's snapshot
      pins.end(b);
      expect(a.group.held).toBe(false);
      expect(pins.oldestActiveStart()).toBeUndefined(); // let go at once, no turn needed
      const c = pins.lease();
      expect(c.group.startTs).toBe(9n);
      pins.end(c);
      expect(pins.oldestActiveStart()).toBe(9n); // nothing committed since: held (and kept) as before
    });
  });

  it('keeps the group while snapshots keep joining it, and lets it go once the process is idle', async () => {
    await withPins(true, async ({ meta, pins }) => {
      await meta.put(COUNTER_KEY, encodeTs(4n));
      const a = pins.lease();
      pins.end(a);
      // Snapshots every 10 ms for longer than several checks: still the same group.
      for (let i = 0; i < 8; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const x = pins.lease();
        expect(x.group).toBe(a.group);
        pins.end(x);
      }
      // Nothing committed, but nobody reads either: a check lets it go (and stops checking).
      expect(await until(() => pins.oldestActiveStart() === undefined)).toBe(true);
    });
  });

  it('without LMDB\'s transaction id, lets every group go at the end of its turn', async () => {
    await withPins(false, async ({ meta, pins }) => {
      await meta.put(COUNTER_KEY, encodeTs(3n));
      const a = pins.lease();
      pins.end(a);
      expect(pins.oldestActiveStart()).toBe(3n); // held until the turn ends
      await turn();
      expect(pins.oldestActiveStart()).toBeUndefined();
      const b = pins.lease();
      expect(b.group).not.toBe(a.group);
      pins.end(b);
    });
  });
});
