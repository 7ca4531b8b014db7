/**
 * Garbage collection for an etcd cluster shared by many SQL nodes.
 *
 * Each node publishes, under `<ns>s gc/<node id>` with a lease (so a dead node's entry
 * expires), the oldest revision it may still read: min(its open snapshots, its pending start
 * requests' lower bounds, the head). The cluster's safe point is the minimum over all entries.
 * Every tick a node compacts etcd's history to (safe point - margin) and deletes the tombstones
 * it wrote below the safe point (conditionally, with a mod_revision compare, so a key rewritten
 * since is left alone). Tombstones of a node that dies before collecting them stay as tombstones
 * (invisible to SQL, costing only space).
 */
import { randomBytes } from 'node:crypto';
import { utf8Decode, utf8Encode } from '../../util/index.js';
import type { EtcdConnection } from './connection.js';
import type { Keyspace } from './keyspace.js';
import { describe, isCompacted } from './rpc-errors.js';
import { CompareResult, CompareTarget, type RequestOp } from './rpc-types.js';

export interface GcOptions {
  /** Time between ticks (default 10 s). */
  readonly intervalMs?: number;
  /** Revisions kept below the safe point (default 1000). */
  readonly marginRevisions?: number;
  readonly onError?: (what: string, err: unknown) => void;
}

export interface GcSource {
  /** The oldest revision this node may still read; called just before publishing. */
  oldestNeeded(head: bigint): bigint;
  /** Current head revision (linearizable). */
  head(): Promise<bigint>;
}

interface PendingTombstone {
  readonly key: Uint8Array;
  readonly revision: bigint;
}

const DELETE_BATCH = 32;

export class EtcdGc {
  readonly nodeId = randomBytes(8).toString('hex');
  private timer: NodeJS.Timeout | undefined;
  private tombstones: PendingTombstone[] = [];
  private lastCompacted = 0n;
  private lease = '0';
  private running: Promise<void> | undefined;
  private readonly intervalMs: number;
  private readonly margin: bigint;

  constructor(
    private readonly conn: EtcdConnection,
    private readonly keys: Keyspace,
    private readonly source: GcSource,
    private readonly opts: GcOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 10_000;
    this.margin = BigInt(opts.marginRevisions ?? 1000);
  }

  /** Publishes this node's entry once (before any snapshot is served), then ticks periodically. */
  async start(): Promise<void> {
    await this.publish(await this.source.head());
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Remembers tombstones written by a commit at `revision`. */
  noteTombstones(keys: readonly Uint8Array[], revision: bigint): void {
    for (const key of keys) this.tombstones.push({ key, revision });
  }

  /** One round: publish, compute the safe point, compact, collect tombstones. Never throws. */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.running;
    if (this.lease !== '0') await this.conn.call('LeaseRevoke', { ID: this.lease }, { retry: 'idempotent', timeoutMs: 2000 }).catch(() => {});
  }

  /** The minimum published revision over live nodes. */
  async safePoint(): Promise<bigint | undefined> {
    const { start, end } = this.keys.systemRange('gc/');
    const res = await this.conn.call('Range', { key: start, range_end: end }, { retry: 'idempotent' });
    let min: bigint | undefined;
    for (const kv of res.kvs) {
      const v = BigInt(utf8Decode(kv.value));
      if (min === undefined || v < min) min = v;
    }
    return min;
  }

  private async round(): Promise<void> {
    try {
      await this.publish(await this.source.head());
      const safe = await this.safePoint();
      if (safe === undefined) return;
      await this.compact(safe - this.margin);
      await this.collect(safe);
    } catch (err) {
      this.opts.onError?.('gc', err);
    }
  }

  private async publish(head: bigint): Promise<void> {
    const ttl = Math.max(10, Math.ceil((this.intervalMs * 3) / 1000));
    const grant = await this.conn.call('LeaseGrant', { TTL: ttl }, { retry: 'idempotent' });
    const value = utf8Encode(this.source.oldestNeeded(head).toString());
    await this.conn.call('Put', { key: this.keys.systemKey(`gc/${this.nodeId}`), value, lease: grant.ID }, { retry: 'idempotent' });
    const old = this.lease;
    this.lease = grant.ID;
    if (old !== '0') await this.conn.call('LeaseRevoke', { ID: old }, { retry: 'idempotent' }).catch(() => {});
  }

  private async compact(target: bigint): Promise<void> {
    if (target <= this.lastCompacted || target < 1n) return;
    try {
      await this.conn.call('Compact', { revision: target.toString() }, { retry: 'idempotent' });
    } catch (err) {
      if (!isCompacted(err)) throw new Error(`compaction to ${target} failed: ${describe(err)}`);
    }
    this.lastCompacted = target;
  }

  private async collect(safe: bigint): Promise<void> {
    const due = this.tombstones.filter((t) => t.revision < safe);
    if (due.length === 0) return;
    this.tombstones = this.tombstones.filter((t) => t.revision >= safe);
    for (let i = 0; i < due.length; i += DELETE_BATCH) {
      const success: RequestOp[] = due.slice(i, i + DELETE_BATCH).map((t) => ({
        request_txn: {
          compare: [{ result: CompareResult.EQUAL, target: CompareTarget.MOD, key: t.key, mod_revision: t.revision.toString() }],
          success: [{ request_delete_range: { key: t.key } }],
        },
      }));
      await this.conn.call('Txn', { success }, { retry: 'idempotent' });
    }
  }
}
