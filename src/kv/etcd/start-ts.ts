/**
 * Start timestamps: the cluster's current revision, read with a linearizable Range (never older
 * than any commit acknowledged before the request). One request serves every transaction that
 * asked while no request was in flight; those arriving during a request wait for the next one
 * (the one in flight may predate their caller's last commit).
 *
 * The Range reads a "hot key" (the catalog's schema version key): its value at the returned
 * revision comes for free and is handed to the snapshot, so the schema check at each
 * transaction start costs no extra round trip.
 */
import type { EtcdConnection } from './connection.js';
import { decodeValue } from './keyspace.js';

export interface StartPoint {
  readonly revision: bigint;
  /** The hot key's value at `revision` (undefined if absent), when a hot key is configured. */
  readonly hotValue: Uint8Array | undefined;
}

interface Waiter {
  resolve(p: StartPoint): void;
  reject(err: unknown): void;
}

export class StartTsBatcher {
  private waiting: Waiter[] = [];
  private inFlight = false;

  /** `hotKey` is the etcd key read along with each revision (any key if none). */
  constructor(
    private readonly conn: EtcdConnection,
    private readonly hotKey: Uint8Array,
  ) {}

  next(): Promise<StartPoint> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inFlight = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const res = await this.conn.call('Range', { key: this.hotKey }, { retry: 'idempotent' });
        const kv = res.kvs[0];
        const point = { revision: BigInt(res.header.revision), hotValue: kv === undefined ? undefined : decodeValue(kv.value) };
        for (const w of batch) w.resolve(point);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.inFlight = false;
  }
}
