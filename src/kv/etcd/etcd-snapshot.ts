/**
 * A snapshot of an etcd cluster at revision S: every read is a serializable Range at revision
 * S, which any member answers from its local state (it answers "future revision" until it has
 * applied S; we then retry). Point reads of several keys go out as one read-only Txn.
 */
import { SqlError, ERRORS } from '../../errors/index.js';
import { keyNext, toHex } from '../../util/index.js';
import type { KeyRange, KvPair, ScanOptions, Snapshot } from '../kv.js';
import type { EtcdConnection } from './connection.js';
import { decodeValue, type Keyspace } from './keyspace.js';
import { describe, isCompacted, isFutureRevision } from './rpc-errors.js';
import { SortOrder, SortTarget, type RangeRequest, type RangeResponse, type RequestOp } from './rpc-types.js';

/** Keys per read-only Txn in batchGet (well under etcd's default --max-txn-ops of 128). */
const BATCH_GET_CHUNK = 64;
/** Keys fetched per Range page at least (etcd walks the whole range per request; see notes). */
const MIN_PAGE = 256;
const FUTURE_RETRIES = 200;

export class EtcdSnapshot implements Snapshot {
  private released = false;

  constructor(
    private readonly conn: EtcdConnection,
    private readonly keys: Keyspace,
    readonly startTs: bigint,
    /** Values already known at startTs (read with the start revision), by hex of the SQL key. */
    private readonly primed: ReadonlyMap<string, Uint8Array | undefined>,
    private readonly onRelease: (snap: EtcdSnapshot) => void,
  ) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const hex = this.primed.size > 0 ? toHex(key) : '';
    if (this.primed.has(hex)) return this.primed.get(hex);
    const res = await this.range({ key: this.keys.dataKey(key) });
    const kv = res.kvs[0];
    return kv === undefined ? undefined : decodeValue(kv.value);
  }

  async batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    if (keys.length <= 1) return keys.length === 0 ? [] : [await this.get(keys[0] as Uint8Array)];
    if (this.primed.size > keys.length) {
      const hexes = keys.map(toHex);
      if (hexes.every((h) => this.primed.has(h))) return hexes.map((h) => this.primed.get(h));
    }
    const chunks: Array<Promise<Array<Uint8Array | undefined>>> = [];
    for (let i = 0; i < keys.length; i += BATCH_GET_CHUNK) chunks.push(this.getChunk(keys.slice(i, i + BATCH_GET_CHUNK)));
    return (await Promise.all(chunks)).flat();
  }

  async scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    const out: KvPair[] = [];
    let start = this.keys.dataKey(range.start);
    let end = this.keys.dataKey(range.end);
    const page = Math.max(opts.limit, MIN_PAGE);
    while (out.length < opts.limit) {
      const res = await this.range({
        key: start,
        range_end: end,
        limit: page,
        ...(opts.reverse === true ? { sort_order: SortOrder.DESCEND, sort_target: SortTarget.KEY } : {}),
      });
      for (const kv of res.kvs) {
        const value = decodeValue(kv.value);
        if (value !== undefined) out.push({ key: this.keys.userKey(kv.key), value });
        if (out.length === opts.limit) return out;
      }
      const last = res.kvs[res.kvs.length - 1];
      if (!res.more || last === undefined) break;
      if (opts.reverse === true) end = last.key;
      else start = keyNext(last.key);
    }
    return out;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease(this);
  }

  private async getChunk(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    const success: RequestOp[] = keys.map((k) => ({
      request_range: { key: this.keys.dataKey(k), revision: this.startTs.toString(), serializable: true },
    }));
    const res = await this.read(() => this.conn.call('Txn', { success }, { retry: 'idempotent' }));
    return res.responses.map((r) => {
      const kv = r.response_range?.kvs[0];
      return kv === undefined ? undefined : decodeValue(kv.value);
    });
  }

  private range(req: RangeRequest): Promise<RangeResponse> {
    return this.read(() =>
      this.conn.call('Range', { ...req, revision: this.startTs.toString(), serializable: true }, { retry: 'idempotent' }),
    );
  }

  /** Runs a read, retrying while the member lags behind S; a compacted S is a retryable 1213. */
  private async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.released) throw new Error('etcd snapshot used after release()');
    for (let i = 0; ; i++) {
      try {
        return await fn();
      } catch (err) {
        if (isFutureRevision(err) && i < FUTURE_RETRIES) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        if (isCompacted(err)) throw snapshotTooOld(this.startTs);
        throw SqlError.of('ER_UNKNOWN_ERROR', `etcd read at revision ${this.startTs} failed: ${describe(err)}`);
      }
    }
  }
}

export function snapshotTooOld(startTs: bigint): SqlError {
  return new SqlError(
    'ER_LOCK_DEADLOCK',
    `${ERRORS.ER_LOCK_DEADLOCK.template} (snapshot too old: etcd revision ${startTs} was compacted)`,
  );
}
