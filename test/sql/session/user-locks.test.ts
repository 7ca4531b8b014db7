import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { uncancellable } from '../../../src/sql/exec/index.js';
import { UserLocks, lockName } from '../../../src/sql/session/user-locks.js';
import { MemTxnStore } from '../exec/mem-txn.js';

/** Writes another process's lock record the way user-lock-store.ts does. */
async function foreignRecord(txns: MemTxnStore, name: string, owner: { host: string; pid: number; conn: number; ts: number }): Promise<void> {
  await txns.update(async (txn) => {
    txn.put(Buffer.concat([Buffer.from('uL\u0000'), Buffer.from(name)]), Buffer.from(JSON.stringify(owner)));
  });
}

describe('user-level locks', () => {
  it('are per session, re-entrant, case-insensitive', async () => {
    const locks = new UserLocks(new MemTxnStore());
    const c = uncancellable();
    expect(await locks.acquire('A', 1, 0, c)).toBe(1n);
    expect(await locks.acquire('a', 1, 0, c)).toBe(1n);
    expect(await locks.acquire('a', 2, 0, c)).toBe(0n);
    expect(await locks.isUsed('A')).toBe(1n);
    expect(await locks.release('a', 2)).toBe(0n);
    expect(await locks.release('a', 1)).toBe(1n);
    expect(await locks.isFree('a')).toBe(0n);
    expect(await locks.release('a', 1)).toBe(1n);
    expect(await locks.isFree('a')).toBe(1n);
    expect(await locks.release('a', 1)).toBeNull();
  });

  it('wakes a waiter when the holder releases, and times out otherwise', async () => {
    const locks = new UserLocks(new MemTxnStore());
    const c = uncancellable();
    await locks.acquire('w', 1, 0, c);
    expect(await locks.acquire('w', 2, 0.05, c)).toBe(0n);
    const waiting = locks.acquire('w', 2, 10, c);
    setTimeout(() => void locks.releaseAll(1), 20);
    expect(await waiting).toBe(1n);
    expect(await locks.isUsed('w')).toBe(2n);
  });

  it('releases everything of a closed session', async () => {
    const locks = new UserLocks(new MemTxnStore());
    const c = uncancellable();
    await locks.acquire('x', 7, 0, c);
    await locks.acquire('x', 7, 0, c);
    await locks.acquire('y', 7, 0, c);
    await locks.acquire('z', 8, 0, c);
    expect(await locks.releaseAll(7)).toBe(3n);
    await locks.sessionClosed(8);
    expect(await locks.isFree('z')).toBe(1n);
  });

  it('honours live records of other processes and ignores stale ones', async () => {
    const txns = new MemTxnStore();
    const locks = new UserLocks(txns);
    const c = uncancellable();
    await foreignRecord(txns, 'remote', { host: 'elsewhere', pid: 1, conn: 42, ts: Date.now() });
    expect(await locks.isUsed('remote')).toBe(42n);
    expect(await locks.acquire('remote', 1, 0, c)).toBe(0n);
    expect(await locks.release('remote', 1)).toBe(0n);
    await foreignRecord(txns, 'old', { host: 'elsewhere', pid: 1, conn: 42, ts: Date.now() - 3_600_000 });
    expect(await locks.isFree('old')).toBe(1n);
    await foreignRecord(txns, 'dead', { host: hostname(), pid: 2 ** 22 + 12345, conn: 42, ts: Date.now() });
    expect(await locks.acquire('dead', 1, 0, c)).toBe(1n);
    await foreignRecord(txns, 'restarted', { host: hostname(), pid: process.pid, conn: 3, ts: Date.now() });
    expect(await locks.isFree('restarted')).toBe(1n);
  });

  it('rejects bad names with 3057', () => {
    expect(() => lockName(null)).toThrow(/Incorrect user-level lock name 'NULL'/);
    expect(() => lockName('')).toThrow(/3057|Incorrect user-level lock name/);
    expect(() => lockName('x'.repeat(65))).toThrow(/Incorrect user-level lock name/);
    expect(lockName('X'.repeat(64))).toBe('x'.repeat(64));
  });

  it('stops waiting when the statement is killed', async () => {
    const locks = new UserLocks(new MemTxnStore());
    await locks.acquire('k', 1, 0, uncancellable());
    const { Cancellation } = await import('../../../src/sql/exec/index.js');
    const cancel = new Cancellation(0);
    setTimeout(() => cancel.interrupt('killed'), 20);
    await expect(locks.acquire('k', 2, 10, cancel)).rejects.toThrow(/interrupted/);
  });
});
