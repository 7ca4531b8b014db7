/**
 * The etcd v3 backend of the kv contract (DESIGN.md §4).
 *
 * - Start timestamp: the cluster revision S from a linearizable Range (batched, start-ts.ts).
 * - Reads: serializable Ranges at revision S (etcd-snapshot.ts).
 * - Commit: one Txn. For every written key (but derived ones, kv.ts Mutation) and every check
 *   key it compares `mod_revision < S + 1`; if all hold it puts the write set (deletes as
 *   tombstones, see keyspace.ts; a derived key's delete is a real delete), else nothing is
 *   applied and the caller gets 1213. The commit timestamp is the Txn's revision. Because
 *   deletes are puts, a key deleted after S fails the compare too, which a real etcd delete
 *   would not (notes: "deletes pass a mod_revision compare"). Keys that must be absent (kv.ts
 *   Mutation) also compare `version == 0`, with a read of them in the failure branch that tells
 *   a live key (KeyExistsError) from a conflict (absent-keys.ts).
 * - Failures: reads retry on other members; a commit is resent only when it never left this
 *   process; otherwise its outcome is unknown and the client gets 1180.
 * - GC: gc.ts (compaction below the cluster-wide safe point, tombstone removal).
 */
import { ERRORS, SqlError } from '../../errors/index.js';
import { toHex } from '../../util/index.js';
import { KeyExistsError, type CommitRequest, type KeyRange, type Snapshot, type Store } from '../kv.js';
import { absentCompares, absentReads, judgeAbsent, type AbsentKey } from './absent-keys.js';
import { EtcdConnection } from './connection.js';
import { EtcdGc, type GcOptions } from './gc.js';
import { encodeLive, Keyspace, tombstone } from './keyspace.js';
import { EtcdSnapshot } from './etcd-snapshot.js';
import {
  describe,
  isNoSpace,
  isRequestTooLarge,
  isServiceError,
  isTooManyOps,
} from './rpc-errors.js';
import { CompareResult, CompareTarget, type Compare, type RequestOp } from './rpc-types.js';
import { StartTsBatcher } from './start-ts.js';
import { parseEtcdUrl } from './url.js';

/** Keys read along with a start revision at most (snapshotWith): a guess, not a batch read. */
const PREFETCH_MAX = 16;

export interface EtcdStoreOptions {
  /** A key read with every start timestamp and served from memory to that snapshot. */
  readonly hotKey?: Uint8Array;
  readonly gc?: GcOptions;
}

export class EtcdStore implements Store {
  /** Absent keys are checked in the commit's Txn (absent-keys.ts). */
  readonly checksAbsent = true;
  private readonly keys: Keyspace;
  private readonly conn: EtcdConnection;
  private readonly batcher: StartTsBatcher;
  private readonly gc: EtcdGc;
  /** Open snapshots by start revision (count), and lower bounds of pending start requests. */
  private readonly open = new Map<bigint, number>();
  private readonly pending = new Map<number, bigint>();
  private pendingSeq = 0;
  private lastSeen = 0n;
  private closed = false;

  private constructor(
    readonly url: string,
    endpoints: readonly string[],
    prefix: string,
    opts: EtcdStoreOptions,
  ) {
    this.keys = new Keyspace(prefix);
    this.conn = new EtcdConnection(endpoints);
    this.batcher = new StartTsBatcher(this.conn, this.keys, opts.hotKey);
    this.gc = new EtcdGc(this.conn, this.keys, {
      head: async () => (await this.batcher.next()).revision,
      oldestNeeded: (head) => this.oldestNeeded(head),
    }, opts.gc);
  }

  /** Connects (preferring the leader) and registers this node for GC. */
  static async open(url: string, opts: EtcdStoreOptions = {}): Promise<EtcdStore> {
    const { endpoints, prefix } = parseEtcdUrl(url);
    const store = new EtcdStore(url, endpoints, prefix, opts);
    try {
      await store.preferLeader();
      await store.gc.start();
    } catch (err) {
      store.conn.close();
      throw new Error(`cannot reach the etcd cluster at ${endpoints.join(',')}: ${describe(err)}`);
    }
    return store;
  }

  snapshot(): Promise<Snapshot> {
    return this.begin([]);
  }

  /** snapshot() whose start request also reads `keys` (start-ts.ts); the snapshot answers them from memory. */
  snapshotWith(keys: readonly Uint8Array[]): Promise<Snapshot> {
    return this.begin(keys.slice(0, PREFETCH_MAX));
  }

  /** Opens a snapshot at the next start point (reading `prefetch` with it), counted for GC while pending and open. */
  private async begin(prefetch: readonly Uint8Array[]): Promise<Snapshot> {
    this.assertOpen();
    const ticket = this.pendingSeq++;
    this.pending.set(ticket, this.lastSeen);
    try {
      const point = await this.batcher.next(prefetch);
      const S = point.revision;
      if (S > this.lastSeen) this.lastSeen = S;
      this.open.set(S, (this.open.get(S) ?? 0) + 1);
      return new EtcdSnapshot(this.conn, this.keys, S, point.values, (snap) => this.released(snap.startTs));
    } catch (err) {
      throw SqlError.of('ER_UNKNOWN_ERROR', `etcd: cannot start a transaction: ${describe(err)}`);
    } finally {
      this.pending.delete(ticket);
    }
  }

  async commit(req: CommitRequest): Promise<bigint> {
    this.assertOpen();
    const later = req.laterChecks ?? [];
    if (req.mutations.length === 0 && req.checkKeys.length === 0 && later.length === 0) return req.startTs;
    const compare: Compare[] = [];
    const success: RequestOp[] = [];
    const tombstones: Uint8Array[] = [];
    const seen = new Set<string>();
    // A key's first guard wins: the txn layer sends each key once, with its earliest base.
    const guard = (key: Uint8Array, since: bigint = req.startTs): void => {
      const hex = toHex(key);
      if (seen.has(hex)) return;
      seen.add(hex);
      compare.push({ result: CompareResult.LESS, target: CompareTarget.MOD, key, mod_revision: (since + 1n).toString() });
    };
    const absent: AbsentKey[] = [];
    for (const m of req.mutations) {
      const key = this.keys.dataKey(m.key);
      // A derived key (kv.ts Mutation) is covered by another key's compare; its delete is a real one.
      // An absent key's compare is made per attempt (sendChecked).
      if (m.absent === true) absent.push({ key: m.key, dataKey: key, since: m.since ?? req.startTs });
      else if (m.derived !== true) guard(key, m.since);
      if (m.op === 'put') success.push({ request_put: { key, value: encodeLive(m.value) } });
      else if (m.derived === true) success.push({ request_delete_range: { key } });
      else {
        success.push({ request_put: { key, value: tombstone() } });
        tombstones.push(key);
      }
    }
    for (const k of req.checkKeys) guard(this.keys.dataKey(k));
    for (const c of later) guard(this.keys.dataKey(c.key), c.since);
    const revision = await this.sendChecked(req.startTs, compare, success, absent);
    if (tombstones.length > 0) this.gc.noteTombstones(tombstones, revision);
    return revision;
  }

  /** Sends the commit's Txn with its absent keys' checks (absent-keys.ts); its revision, or the error. */
  private async sendChecked(startTs: bigint, compare: Compare[], success: RequestOp[], absent: readonly AbsentKey[]): Promise<bigint> {
    const strict = new Set(absent.map((k) => toHex(k.dataKey)));
    for (;;) {
      const checks = absent.length === 0 ? compare : [...compare, ...absentCompares(absent, strict)];
      const res = await this.sendCommit(checks, success, absentReads(absent));
      const revision = BigInt(res.header.revision);
      if (revision > this.lastSeen) this.lastSeen = revision;
      if (res.succeeded) return revision;
      const verdict = absent.length === 0 ? { kind: 'conflict' as const } : judgeAbsent(res, absent);
      if (verdict.kind === 'exists') throw new KeyExistsError(verdict.key);
      const relaxed = verdict.kind === 'tombstones' ? verdict.dataKeys.filter((k) => strict.delete(k)) : [];
      if (relaxed.length === 0) {
        throw new SqlError(
          'ER_LOCK_DEADLOCK',
          `${ERRORS.ER_LOCK_DEADLOCK.template} (write conflict: a key of the transaction was committed after the snapshot it was read at, etcd revision ${startTs} or later)`,
        );
      }
    }
  }

  async deleteRange(range: KeyRange): Promise<void> {
    this.assertOpen();
    await this.conn.call(
      'DeleteRange',
      { key: this.keys.dataKey(range.start), range_end: this.keys.dataKey(range.end) },
      { retry: 'idempotent', timeoutMs: 60_000 },
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gc.stop();
    this.conn.close();
  }

  /** The member requests go to now (logs, tests). */
  currentEndpoint(): string {
    return this.conn.currentEndpoint();
  }

  /** Runs one GC round now (tests and operators; normally periodic). */
  collectGarbage(): Promise<void> {
    return this.gc.tick();
  }

  private async sendCommit(compare: Compare[], success: RequestOp[], failure: RequestOp[]) {
    try {
      return await this.conn.call('Txn', { compare, success, failure }, { retry: 'once', timeoutMs: 30_000 });
    } catch (err) {
      throw commitError(err, Math.max(compare.length, success.length));
    }
  }

  private oldestNeeded(head: bigint): bigint {
    let min = head;
    for (const s of this.open.keys()) if (s < min) min = s;
    for (const s of this.pending.values()) if (s < min) min = s;
    return min;
  }

  private released(startTs: bigint): void {
    const n = (this.open.get(startTs) ?? 1) - 1;
    if (n <= 0) this.open.delete(startTs);
    else this.open.set(startTs, n);
  }

  private async preferLeader(): Promise<void> {
    const statuses = await Promise.all(
      this.conn.endpoints.map((_, i) => this.conn.callMember(i, 'Status', {}).catch(() => undefined)),
    );
    if (statuses.every((s) => s === undefined)) throw new Error('no etcd member answered');
    const leader = statuses.findIndex((s) => s !== undefined && s.leader !== '0' && s.leader === s.header.member_id);
    const first = statuses.findIndex((s) => s !== undefined);
    this.conn.prefer(leader >= 0 ? leader : first);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('etcd store is closed');
  }
}

/** Maps a failed commit Txn to the error the client sees. */
function commitError(err: unknown, ops: number): SqlError {
  if (isTooManyOps(err)) {
    return SqlError.of(
      'ER_TXN_TOO_LARGE',
      `${ops} etcd operations exceed the cluster's --max-txn-ops limit; start etcd with a larger --max-txn-ops (shale cluster up uses 10000) or write fewer rows per transaction`,
    );
  }
  if (isRequestTooLarge(err)) {
    return SqlError.of(
      'ER_TXN_TOO_LARGE',
      "the write set exceeds the etcd cluster's --max-request-bytes limit; start etcd with a larger --max-request-bytes (shale cluster up uses 33554432) or write less per transaction",
    );
  }
  if (isNoSpace(err)) {
    return SqlError.of('ER_UNKNOWN_ERROR', 'etcd: database space exceeded (--quota-backend-bytes); compact, defragment and disarm the NOSPACE alarm');
  }
  const code = isServiceError(err) ? err.code : -1;
  return SqlError.of('ER_ERROR_DURING_COMMIT', code, `etcd: ${describe(err)}; the transaction may or may not have been applied`);
}
