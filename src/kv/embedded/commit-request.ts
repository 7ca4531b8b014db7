/** A commit request's checks before it is queued, and the result its outcome gives the caller. */
import { KeyExistsError, type CommitRequest } from '../kv.js';
import { assertRunShape, runKeyLength } from '../key-run.js';
import { ERRORS, SqlError } from '../../errors/index.js';
import { toHex } from '../../util/index.js';
import type { CommitOutcome } from './commit-apply.js';
import { MAX_KEY_BYTES } from './lmdb-snapshot.js';

/** Delete keys may not exceed this (the tombstone index prefixes them with 8 bytes). */
const MAX_WRITE_KEY_BYTES = MAX_KEY_BYTES - 8;
const CONFLICT_BASE = ERRORS.ER_LOCK_DEADLOCK.template;

/** The commit's timestamp, or the 1213 (or KeyExistsError) its outcome calls for. */
export function commitResult(req: CommitRequest, outcome: CommitOutcome): bigint {
  if (outcome.kind === 'ok') return outcome.commitTs;
  if (outcome.kind === 'exists') throw new KeyExistsError(outcome.key);
  if (outcome.kind === 'conflict') {
    throw new SqlError('ER_LOCK_DEADLOCK', `${CONFLICT_BASE} (write conflict on key ${toHex(outcome.key)})`);
  }
  throw new SqlError('ER_LOCK_DEADLOCK', `${CONFLICT_BASE} (snapshot ${req.startTs} is older than the GC safe point ${outcome.safePoint})`);
}

/** Key lengths LMDB takes, check bases no older than the snapshot and a well-formed key run (a caller's bug otherwise). */
export function validateKeys(req: CommitRequest): void {
  for (const m of req.mutations) {
    checkKey(m.key, MAX_WRITE_KEY_BYTES);
    if (m.since !== undefined) checkSince(req.startTs, m.since);
  }
  for (const k of req.checkKeys) checkKey(k, MAX_KEY_BYTES);
  for (const c of req.laterChecks ?? []) {
    checkKey(c.key, MAX_KEY_BYTES);
    checkSince(req.startTs, c.since);
  }
  if (req.run !== undefined) {
    assertRunShape(req.run);
    const length = runKeyLength(req.run);
    if (length > MAX_WRITE_KEY_BYTES) throw new Error(`embedded store: key length ${length} outside 1..${MAX_WRITE_KEY_BYTES}`);
  }
}

function checkSince(startTs: bigint, since: bigint): void {
  if (since < startTs) throw new Error(`embedded store: check base ${since} before the snapshot ${startTs}`);
}

function checkKey(key: Uint8Array, max: number): void {
  if (key.length === 0 || key.length > max) {
    throw new Error(`embedded store: key length ${key.length} outside 1..${max}`);
  }
}
