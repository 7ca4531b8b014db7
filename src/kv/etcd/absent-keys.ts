/**
 * Mutations marked `absent` (kv.ts Mutation) in an etcd commit, checked inside the commit's Txn.
 *
 * An absent key's compare is `version == 0` (never written, or its tombstone collected) instead
 * of the `mod_revision < since + 1` of other written keys (which it implies), and the Txn's
 * failure branch reads the key, so a failed commit tells why in the same round trip: a live value
 * committed no later than the snapshot means the key exists (KeyExistsError); a value or
 * tombstone committed after it is a write conflict (1213); a tombstone no newer than the snapshot
 * (a deleted row whose tombstone GC has not run yet) holds no value but fails `version == 0`,
 * so the commit is sent again with that key's mod_revision compare instead.
 *
 * Example: commit at snapshot S=40 puts k1 (absent). k1 holds a live value from revision 12 →
 * the Txn fails, its failure read returns k1@12 live → KeyExistsError(k1). If k1 held a
 * tombstone from revision 12 → resend with k1's `mod_revision < 41` compare → success.
 */
import { toHex } from '../../util/index.js';
import { decodeValue } from './keyspace.js';
import { CompareResult, CompareTarget, type Compare, type RequestOp, type TxnResponse } from './rpc-types.js';

export interface AbsentKey {
  /** The caller's key (what KeyExistsError names). */
  readonly key: Uint8Array;
  /** Its key in etcd (keyspace.ts). */
  readonly dataKey: Uint8Array;
  /** Its conflict check's base (kv.ts Mutation `since`, else the snapshot). */
  readonly since: bigint;
}

export type AbsentVerdict =
  | { readonly kind: 'exists'; readonly key: Uint8Array }
  | { readonly kind: 'tombstones'; readonly dataKeys: readonly string[] }
  | { readonly kind: 'conflict' };

/** Each absent key's compare: `version == 0` while it is `strict` (hex of its data key), else its mod_revision check. */
export function absentCompares(keys: readonly AbsentKey[], strict: ReadonlySet<string>): Compare[] {
  return keys.map((k) =>
    strict.has(toHex(k.dataKey))
      ? { result: CompareResult.EQUAL, target: CompareTarget.VERSION, key: k.dataKey, version: 0 }
      : { result: CompareResult.LESS, target: CompareTarget.MOD, key: k.dataKey, mod_revision: (k.since + 1n).toString() },
  );
}

/** The failure branch: a read of each absent key, in order. */
export function absentReads(keys: readonly AbsentKey[]): RequestOp[] {
  return keys.map((k) => ({ request_range: { key: k.dataKey } }));
}

/** Why a Txn with absent keys failed, from its failure branch's reads (see above). */
export function judgeAbsent(res: TxnResponse, keys: readonly AbsentKey[]): AbsentVerdict {
  const tombstones: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const kv = res.responses[i]?.response_range?.kvs[0];
    if (kv === undefined) continue;
    if (BigInt(kv.mod_revision) > (keys[i] as AbsentKey).since) return { kind: 'conflict' };
    const k = keys[i] as AbsentKey;
    if (decodeValue(kv.value) !== undefined) return { kind: 'exists', key: k.key };
    tombstones.push(toHex(k.dataKey));
  }
  return tombstones.length > 0 ? { kind: 'tombstones', dataKeys: tombstones } : { kind: 'conflict' };
}
