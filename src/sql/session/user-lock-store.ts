/**
 * Where user-level locks (GET_LOCK) live so every SQL process on the store sees them: one KV
 * key per lock name (`uL\0` + name, outside the table `t` and meta `m` spaces) whose value names
 * the owner: host name, pid, connection id and a heartbeat time. Acquire and release are small
 * transactions of their own (never the session's), so two acquirers race through the store's
 * first-committer-wins check. A record is stale, hence free, when its heartbeat is older than
 * STALE_MS (the owning process died; works across machines on etcd) or when it names a dead pid
 * on this host (embedded store: another worker died).
 */
import { hostname } from 'node:os';
import type { TxnStore } from '../../txn/index.js';
import { pidAlive, utf8Decode, utf8Encode } from '../../util/index.js';

/** Holders rewrite their records this often ... */
export const HEARTBEAT_MS = 10_000;
/** ... and a record not refreshed for this long is free. */
export const STALE_MS = 60_000;

export interface LockOwner {
  readonly host: string;
  readonly pid: number;
  readonly conn: number;
  readonly ts: number;
}

const HOST = hostname();
const PREFIX = utf8Encode('uL\u0000');

function keyOf(name: string): Uint8Array {
  const n = utf8Encode(name);
  const k = new Uint8Array(PREFIX.length + n.length);
  k.set(PREFIX, 0);
  k.set(n, PREFIX.length);
  return k;
}

function decode(v: Uint8Array | undefined): LockOwner | undefined {
  if (v === undefined) return undefined;
  try {
    const o: unknown = JSON.parse(utf8Decode(v));
    if (typeof o !== 'object' || o === null) return undefined;
    const r = o as Record<string, unknown>;
    if (typeof r['host'] !== 'string' || typeof r['pid'] !== 'number' || typeof r['conn'] !== 'number' || typeof r['ts'] !== 'number') return undefined;
    return { host: r['host'], pid: r['pid'], conn: r['conn'], ts: r['ts'] };
  } catch {
    return undefined;
  }
}

export class UserLockStore {
  /**
   * `ownLive(name, conn)` says whether a record naming this process is still held (this
   * process's table is authoritative for its own records: a leftover from a previous process
   * with the same pid is stale).
   */
  constructor(
    private readonly txns: TxnStore,
    private readonly ownLive: (name: string, conn: number) => boolean,
  ) {}

  /** The live owner of `name`, if any. */
  async owner(name: string): Promise<LockOwner | undefined> {
    const rec = decode(await this.txns.view((txn) => txn.get(keyOf(name))));
    return rec !== undefined && this.live(name, rec) ? rec : undefined;
  }

  /** Takes `name` for `conn` when free (or stale); false when another live owner holds it. */
  tryAcquire(name: string, conn: number): Promise<boolean> {
    return this.txns.update(async (txn) => {
      const rec = decode(await txn.get(keyOf(name)));
      if (rec !== undefined && this.live(name, rec) && !(this.isMine(rec) && rec.conn === conn)) return false;
      txn.put(keyOf(name), this.record(conn));
      return true;
    });
  }

  /** Deletes the record if this process's `conn` owns it. */
  async release(name: string, conn: number): Promise<void> {
    await this.txns.update(async (txn) => {
      const rec = decode(await txn.get(keyOf(name)));
      if (rec !== undefined && this.isMine(rec) && rec.conn === conn) txn.delete(keyOf(name));
    });
  }

  /** Rewrites the heartbeat of a record this process's `conn` owns. */
  async refresh(name: string, conn: number): Promise<void> {
    await this.txns.update(async (txn) => {
      const rec = decode(await txn.get(keyOf(name)));
      if (rec === undefined || (this.isMine(rec) && rec.conn === conn)) txn.put(keyOf(name), this.record(conn));
    });
  }

  private record(conn: number): Uint8Array {
    const owner: LockOwner = { host: HOST, pid: process.pid, conn, ts: Date.now() };
    return utf8Encode(JSON.stringify(owner));
  }

  private isMine(rec: LockOwner): boolean {
    return rec.host === HOST && rec.pid === process.pid;
  }

  private live(name: string, rec: LockOwner): boolean {
    if (this.isMine(rec)) return this.ownLive(name, rec.conn);
    if (Date.now() - rec.ts > STALE_MS) return false;
    return rec.host !== HOST || pidAlive(rec.pid);
  }
}
