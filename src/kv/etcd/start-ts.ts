/**
 * Start timestamps: the cluster's current revision, read with a linearizable request (never
 * older than any commit acknowledged before the request). One request serves every transaction
 * that asked while no request was in flight; those arriving during a request wait for the next
 * one (the one in flight may predate their caller's last commit).
 *
 * The request reads a "hot key" (the catalog's schema version key): its value at the returned
 * revision comes for free and is handed to the snapshot, so the schema check at each
 * transaction start costs no extra round trip. A caller may also name keys it will read first
 * (EtcdStore.snapshotWith): the request is then a read-only Txn of Ranges, which etcd answers
 * at one revision (linearizable too, as none is serializable), and each caller gets the values
 * of the keys it named.
 */
import { toHex } from '../../util/index.js';
import type { EtcdConnection } from './connection.js';
import { decodeValue, type Keyspace } from './keyspace.js';
import type { RequestOp } from './rpc-types.js';

/** Ranges per start request at most (etcd's default --max-txn-ops is 128). */
const MAX_RANGES = 64;

export interface StartPoint {
  readonly revision: bigint;
  /** Values at `revision` of the hot key (when one is configured) and of the keys the caller named, by hex of the SQL key. */
  readonly values: ReadonlyMap<string, Uint8Array | undefined>;
}

interface Waiter {
  readonly keys: readonly Uint8Array[];
  resolve(p: StartPoint): void;
  reject(err: unknown): void;
}

export class StartTsBatcher {
  private waiting: Waiter[] = [];
  private inFlight = false;

  /** `hotKey` (a SQL key) is read along with each revision; without one, any key is read and none reported. */
  constructor(
    private readonly conn: EtcdConnection,
    private readonly keys: Keyspace,
    private readonly hotKey: Uint8Array | undefined,
  ) {}

  /** The next start point, with the values of `prefetch` at it. */
  next(prefetch: readonly Uint8Array[] = []): Promise<StartPoint> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ keys: prefetch, resolve, reject });
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inFlight = true;
    while (this.waiting.length > 0) {
      const batch = this.take();
      try {
        const point = await this.read(batch);
        for (const w of batch) w.resolve(point);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.inFlight = false;
  }

  /** The waiters one request serves: all of them, or as many as MAX_RANGES keys allow (at least one). */
  private take(): Waiter[] {
    let n = 0;
    let ranges = 1;
    while (n < this.waiting.length && (n === 0 || ranges + (this.waiting[n] as Waiter).keys.length <= MAX_RANGES)) {
      ranges += (this.waiting[n] as Waiter).keys.length;
      n++;
    }
    return this.waiting.splice(0, n);
  }

  /** One linearizable request: a Range of the hot key, or a read-only Txn with the batch's keys too. */
  private async read(batch: readonly Waiter[]): Promise<StartPoint> {
    const values = new Map<string, Uint8Array | undefined>();
    const hot = this.hotKey;
    if (batch.every((w) => w.keys.length === 0)) {
      const res = await this.conn.call('Range', { key: this.keys.dataKey(hot ?? new Uint8Array([0])) }, { retry: 'idempotent' });
      const kv = res.kvs[0];
      if (hot !== undefined) values.set(toHex(hot), kv === undefined ? undefined : decodeValue(kv.value));
      return { revision: BigInt(res.header.revision), values };
    }
    const wanted = new Map<string, Uint8Array>();
    if (hot !== undefined) wanted.set(toHex(hot), hot);
    for (const w of batch) for (const k of w.keys.slice(0, MAX_RANGES - 1)) wanted.set(toHex(k), k);
    const success: RequestOp[] = [...wanted.values()].map((k) => ({ request_range: { key: this.keys.dataKey(k) } }));
    const res = await this.conn.call('Txn', { success }, { retry: 'idempotent' });
    [...wanted.keys()].forEach((hex, i) => {
      const kv = res.responses[i]?.response_range?.kvs[0];
      values.set(hex, kv === undefined ? undefined : decodeValue(kv.value));
    });
    return { revision: BigInt(res.header.revision), values };
  }
}
