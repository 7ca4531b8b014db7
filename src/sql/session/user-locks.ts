/**
 * User-level locks: GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK, IS_USED_LOCK, RELEASE_ALL_LOCKS with
 * MySQL 8.0's rules: owned by a session, re-entrant (each GET_LOCK needs its RELEASE_LOCK),
 * released when the session ends (or is killed), names case-insensitive and 1..64 characters
 * (else 3057). One registry per process and store keeps the locks its sessions hold; the store
 * records (user-lock-store.ts) make them visible to the other SQL processes on the same store
 * (`serve --workers N`, or several nodes on etcd). A waiter polls with backoff up to its
 * timeout and gives up at once when its statement is killed.
 */
import { SqlError } from '../../errors/index.js';
import type { TxnStore } from '../../txn/index.js';
import type { Cancellation } from '../exec/index.js';
import { HEARTBEAT_MS, UserLockStore } from './user-lock-store.js';

const MAX_NAME = 64;
const MAX_BACKOFF_MS = 100;

interface Held {
  readonly conn: number;
  count: number;
}

export class UserLocks {
  private readonly held = new Map<string, Held>();
  /** Names a local session is taking in the store right now (one at a time per name). */
  private readonly acquiring = new Map<string, number>();
  private readonly store: UserLockStore;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(txns: TxnStore) {
    this.store = new UserLockStore(txns, (name, conn) => this.held.get(name)?.conn === conn || this.acquiring.get(name) === conn);
  }

  /** 1 when taken, 0 on timeout (`timeoutSec` < 0 waits forever); throws 1317/3024 when interrupted. */
  async acquire(rawName: string | null, conn: number, timeoutSec: number, cancel: Cancellation): Promise<bigint> {
    const name = lockName(rawName);
    const deadline = timeoutSec < 0 ? Infinity : performance.now() + timeoutSec * 1000;
    let backoff = 2;
    for (;;) {
      const mine = this.held.get(name);
      if (mine !== undefined && mine.conn === conn) {
        mine.count++;
        return 1n;
      }
      if (mine === undefined && !this.acquiring.has(name) && (await this.tryTake(name, conn))) return 1n;
      const left = deadline - performance.now();
      if (left <= 0) return 0n;
      await pause(Math.min(backoff, left), cancel);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  private async tryTake(name: string, conn: number): Promise<boolean> {
    this.acquiring.set(name, conn);
    try {
      if (!(await this.store.tryAcquire(name, conn))) return false;
      this.held.set(name, { conn, count: 1 });
      this.startHeartbeat();
      return true;
    } finally {
      this.acquiring.delete(name);
    }
  }

  /** 1 released (one level), 0 held by someone else, NULL when nobody holds it. */
  async release(rawName: string | null, conn: number): Promise<bigint | null> {
    const name = lockName(rawName);
    const mine = this.held.get(name);
    if (mine !== undefined) {
      if (mine.conn !== conn) return 0n;
      if (--mine.count === 0) await this.drop(name, conn);
      return 1n;
    }
    return (await this.store.owner(name)) === undefined ? null : 0n;
  }

  async isFree(rawName: string | null): Promise<bigint> {
    const name = lockName(rawName);
    if (this.held.has(name) || this.acquiring.has(name)) return 0n;
    return (await this.store.owner(name)) === undefined ? 1n : 0n;
  }

  /** The holder's connection id, or NULL. */
  async isUsed(rawName: string | null): Promise<bigint | null> {
    const name = lockName(rawName);
    const mine = this.held.get(name);
    if (mine !== undefined) return BigInt(mine.conn);
    const owner = await this.store.owner(name);
    return owner === undefined ? null : BigInt(owner.conn);
  }

  /** Releases every lock of `conn` (all levels); returns how many levels were held. */
  async releaseAll(conn: number): Promise<bigint> {
    let n = 0;
    for (const [name, h] of [...this.held]) {
      if (h.conn !== conn) continue;
      n += h.count;
      await this.drop(name, conn);
    }
    return BigInt(n);
  }

  /** Session end: releases its locks; never throws (a store failure leaves a record to go stale). */
  async sessionClosed(conn: number): Promise<void> {
    try {
      await this.releaseAll(conn);
    } catch {
      for (const [name, h] of [...this.held]) if (h.conn === conn) this.held.delete(name);
    }
  }

  private async drop(name: string, conn: number): Promise<void> {
    this.held.delete(name);
    if (this.held.size === 0) this.stopHeartbeat();
    await this.store.release(name, conn);
  }

  private startHeartbeat(): void {
    if (this.heartbeat !== undefined) return;
    this.heartbeat = setInterval(() => {
      for (const [name, h] of this.held) this.store.refresh(name, h.conn).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

/** MySQL 8.0: names are case-insensitive; NULL, '' or more than 64 characters is 3057. */
export function lockName(raw: string | null): string {
  if (raw === null || raw.length === 0 || Array.from(raw).length > MAX_NAME) throw SqlError.of('ER_USER_LOCK_WRONG_NAME', raw ?? 'NULL');
  return raw.toLowerCase();
}

/** Waits `ms` (at most 50 ms between checks) unless the statement is interrupted first (then throws). */
export async function pause(ms: number, cancel: Cancellation): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    cancel.check();
    const left = end - performance.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => setTimeout(resolve, Math.min(left, 50)));
  }
}

const registries = new WeakMap<TxnStore, UserLocks>();

/** The process-wide registry for a store. */
export function userLocksFor(txns: TxnStore): UserLocks {
  let r = registries.get(txns);
  if (r === undefined) {
    r = new UserLocks(txns);
    registries.set(txns, r);
  }
  return r;
}
