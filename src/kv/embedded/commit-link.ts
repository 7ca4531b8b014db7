/**
 * Commits over an IPC channel: with `shale serve --workers N` only the primary process writes
 * the embedded store; workers read it directly and send each commit to the primary.
 *
 * Why: LMDB admits one write transaction at a time across all processes, and lmdb-js runs one
 * write thread per process that holds the lock while it waits for the JavaScript callback of a
 * transaction. Several writing processes hand the lock back and forth; measured on 2 cores with
 * sysbench oltp_update_non_index at 8 threads, 2 writing worker processes reached about half,
 * 4 about a third, of the TPS of 1 process. One writer batches every process's commits into its
 * write transactions and fsyncs, and the workers still spread the SQL work over the cores.
 *
 * Messages (node:cluster IPC with `serialization: 'advanced'`, so bigint and Uint8Array pass
 * as they are):
 *   worker -> primary  { type: 'shale:kv-commit', id, startTs, mutations, checkKeys }
 *   primary -> worker  { type: 'shale:kv-commit-res', id, outcome } or { ..., id, error }
 * e.g. { type: 'shale:kv-commit', id: 7, startTs: 41n, mutations: [{ op: 'put', key: <6b 31>,
 * value: <01> }], checkKeys: [] } is answered { type: 'shale:kv-commit-res', id: 7, outcome:
 * { kind: 'ok', commitTs: 42n } }. The primary validates every message before using it.
 */
import { ERRORS, type ErrorName, SqlError } from '../../errors/index.js';
import type { CommitRequest, Mutation } from '../kv.js';
import type { CommitOutcome } from './commit-apply.js';

export const COMMIT_CALL = 'shale:kv-commit';
export const COMMIT_REPLY = 'shale:kv-commit-res';

export interface CommitCall extends CommitRequest {
  readonly type: typeof COMMIT_CALL;
  readonly id: number;
}

export interface CommitReply {
  readonly type: typeof COMMIT_REPLY;
  readonly id: number;
  readonly outcome?: CommitOutcome;
  readonly error?: { readonly message: string; readonly errName?: string };
}

/** The worker's end: commit() sends a call, handle() settles it when the reply arrives. */
export class CommitLinkClient {
  private readonly waiting = new Map<number, { resolve: (o: CommitOutcome) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private lost: Error | undefined;

  /** `send` delivers one message to the writer; it reports a failed send through its callback. */
  constructor(private readonly send: (msg: CommitCall, onError: (err: Error) => void) => void) {}

  commit(req: CommitRequest): Promise<CommitOutcome> {
    if (this.lost !== undefined) return Promise.reject(this.lost);
    const id = this.nextId++;
    return new Promise<CommitOutcome>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const call: CommitCall = { type: COMMIT_CALL, id, startTs: req.startTs, mutations: req.mutations, checkKeys: req.checkKeys };
      this.send(call, (err) => this.settle(id, undefined, err));
    });
  }

  /** Feeds one incoming message; true if it was a commit reply. */
  handle(msg: unknown): boolean {
    if (!isReply(msg)) return false;
    const error = msg.error === undefined ? undefined : replyError(msg.error);
    this.settle(msg.id, msg.outcome, error ?? (msg.outcome === undefined ? new Error('commit reply without an outcome') : undefined));
    return true;
  }

  /** The channel is gone: every waiting and later commit fails with `err` (outcome unknown). */
  fail(err: Error): void {
    this.lost = err;
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined, err);
  }

  private settle(id: number, outcome: CommitOutcome | undefined, err: Error | undefined): void {
    const w = this.waiting.get(id);
    if (w === undefined) return;
    this.waiting.delete(id);
    if (err !== undefined || outcome === undefined) w.reject(err ?? new Error('commit failed'));
    else w.resolve(outcome);
  }
}

/**
 * The writer's end: the reply to `msg` if it is a commit call (undefined otherwise), from
 * `commit` (the store's own commit path returning the raw outcome).
 */
export async function answerCommitCall(msg: unknown, commit: (req: CommitRequest) => Promise<CommitOutcome>): Promise<CommitReply | undefined> {
  if (typeof msg !== 'object' || msg === null || (msg as { type?: unknown }).type !== COMMIT_CALL) return undefined;
  const call = msg as Record<string, unknown>;
  const id = typeof call['id'] === 'number' ? call['id'] : -1;
  const req = parseRequest(call);
  if (req === undefined) return { type: COMMIT_REPLY, id, error: { message: 'malformed commit call' } };
  try {
    return { type: COMMIT_REPLY, id, outcome: await commit(req) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { type: COMMIT_REPLY, id, error: err instanceof SqlError ? { message, errName: err.errName } : { message } };
  }
}

function parseRequest(call: Record<string, unknown>): CommitRequest | undefined {
  const { startTs, mutations, checkKeys } = call;
  if (typeof startTs !== 'bigint' || !Array.isArray(mutations) || !Array.isArray(checkKeys)) return undefined;
  const muts: Mutation[] = [];
  for (const m of mutations as unknown[]) {
    if (typeof m !== 'object' || m === null) return undefined;
    const { op, key, value } = m as Record<string, unknown>;
    if (!(key instanceof Uint8Array)) return undefined;
    if (op === 'put' && value instanceof Uint8Array) muts.push({ op, key, value });
    else if (op === 'del') muts.push({ op, key });
    else return undefined;
  }
  if (!checkKeys.every((k): k is Uint8Array => k instanceof Uint8Array)) return undefined;
  return { startTs, mutations: muts, checkKeys };
}

function isReply(msg: unknown): msg is CommitReply {
  if (typeof msg !== 'object' || msg === null) return false;
  const r = msg as Record<string, unknown>;
  if (r['type'] !== COMMIT_REPLY || typeof r['id'] !== 'number') return false;
  return r['outcome'] === undefined ? typeof (r['error'] as { message?: unknown } | undefined)?.message === 'string' : isOutcome(r['outcome']);
}

function isOutcome(o: unknown): o is CommitOutcome {
  if (typeof o !== 'object' || o === null) return false;
  const r = o as Record<string, unknown>;
  if (r['kind'] === 'ok') return typeof r['commitTs'] === 'bigint';
  if (r['kind'] === 'conflict') return r['key'] instanceof Uint8Array;
  return r['kind'] === 'too-old' && typeof r['safePoint'] === 'bigint';
}

/** A MySQL error raised by the writer keeps its code; anything else becomes an Error. */
function replyError(e: { readonly message: string; readonly errName?: string }): Error {
  if (e.errName !== undefined && Object.hasOwn(ERRORS, e.errName)) return new SqlError(e.errName as ErrorName, e.message);
  return new Error(e.message);
}
