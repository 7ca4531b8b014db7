/**
 * The conflict check of a commit's key run (kv key-run.ts) in the embedded store: first committer
 * wins on each of the run's keys, like a plain mutation, but found with one cursor walk over the
 * keys stored between the run's first and last key instead of a lookup per key. A run's keys are
 * new index entries, so that stretch of the tree is mostly empty: the walk costs one descent
 * where the lookups cost thousands. Each stored key met that was committed (put or deleted) after
 * the snapshot is looked up among the run's keys, which are ascending, so one pointer moves
 * forward through them.
 *
 * Example: run keys A, C, E; stored between A and E: B (committed after the snapshot) and C
 * (committed before it). B is not a run key and C is older: no conflict. Had C been committed
 * after the snapshot, the check would return C.
 */
import type { Database } from 'lmdb';
import { runKey, runKeyLength, writeRunKey, type KeyRun } from '../key-run.js';
import { compareBytes, keyNext } from '../../util/index.js';
import { storedAfter } from './value-format.js';

/** The first of the run's keys stored with a commit after the snapshot `startBytes` (encodeTs) encodes, if any. */
export function runConflict(data: Database<Buffer, Uint8Array>, run: KeyRun, startBytes: Uint8Array): Uint8Array | undefined {
  if (run.to <= run.from) return undefined;
  const start = runKey(run, run.from);
  const end = keyNext(runKey(run, run.to - 1));
  const probe = new Uint8Array(runKeyLength(run));
  let i = run.from;
  // Inside the write transaction's callback, lmdb-js reads from that transaction.
  for (const { key, value } of data.getRange({ start, end })) {
    if (!storedAfter(value, startBytes)) continue;
    // Move to the first run key >= the stored one; a match is a conflict.
    for (; i < run.to; i++) {
      const ours = probe.subarray(0, writeRunKey(run, i, probe, 0));
      const c = compareBytes(ours, key);
      if (c === 0) return ours;
      if (c > 0) break;
    }
    if (i === run.to) return undefined;
  }
  return undefined;
}
