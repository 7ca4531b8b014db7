/**
 * A commit's writes made with one native call (the add-on's `shaledbApplyOps`,
 * scripts/lmdb-addon-functions.mjs) instead of one lmdb-js `put` / `removeSync` per key: the call
 * reads the ops of the commit's redo record (redo-record.ts), which the log needs encoded anyway,
 * and makes each write in the write transaction whose callback is running. lmdb-js's `put`
 * encodes an instruction (dbi, key copy, the value's address) and crosses into native code per
 * key; a bulk INSERT's commit has thousands. LMDB copies every key and value during the call,
 * so the record may be reused afterwards.
 *
 * Writes that bypass lmdb-js must leave nothing lmdb-js caches stale: the store's databases are
 * opened without lmdb-js's value cache and without versions or compression (the native side
 * refuses the latter two).
 */
import type { RootDatabase } from 'lmdb';
import type { EmbeddedDbs } from './commit-apply.js';
import { dbiAddress, nativeAddress } from './lmdb-build.js';
import { opsStart } from './redo-record.js';

/** The add-on's apply function (its contract is in scripts/lmdb-addon-functions.mjs). */
export type ApplyOpsFunction = (
  envAddress: number,
  dataDbi: number,
  metaDbi: number,
  tombsDbi: number,
  bytes: Uint8Array,
  start: number,
  end: number,
) => number;

const BAD_ARGUMENTS = -100000;
const MALFORMED = -100001;
const MDB_ERRORS_LOW = -30800;
const MDB_ERRORS_HIGH = -30700;

export class NativeApplier {
  constructor(
    private readonly fn: ApplyOpsFunction,
    private readonly envAddress: number,
    private readonly dbis: readonly [number, number, number],
  ) {}

  /**
   * Makes the writes of encoded writes record `record` (redo-record.ts) in the current write
   * transaction. Throws as lmdb-js's put does when LMDB refuses a write (an Error with LMDB's
   * `code`; the transaction is then unusable and its batch fails).
   */
  applyRecord(record: Buffer): void {
    const [data, meta, tombs] = this.dbis;
    const rc = this.fn(this.envAddress, data, meta, tombs, record, opsStart(record), record.length);
    if (rc !== 0) throw applyError(rc);
  }
}

/** The applier for `dbs` in `root`'s environment, or undefined without the add-on's function. */
export function nativeApplier(root: RootDatabase<Buffer, string>, dbs: Omit<EmbeddedDbs, 'applier'>, fn: ApplyOpsFunction): NativeApplier | undefined {
  const envAddress = nativeAddress((root as unknown as { env?: unknown }).env);
  const [data, meta, tombs] = [dbs.data, dbs.meta, dbs.tombs].map(dbiAddress);
  if (envAddress === undefined || data === undefined || meta === undefined || tombs === undefined) return undefined;
  return new NativeApplier(fn, envAddress, [data, meta, tombs]);
}

function applyError(rc: number): Error {
  if (rc === BAD_ARGUMENTS) return new Error('embedded store: native apply refused its arguments (no write transaction?)');
  if (rc === MALFORMED) return new Error('embedded store: native apply found malformed ops');
  // lmdb-js's errors carry LMDB's own codes as they are and an OS error as a positive errno.
  const code = rc > MDB_ERRORS_LOW && rc < MDB_ERRORS_HIGH ? rc : -rc;
  return Object.assign(new Error(`embedded store: LMDB write failed (${code})`), { code });
}
