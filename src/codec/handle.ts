/**
 * A row handle: what follows `t{tableId}_r` in a record key.
 * - `int`: an integer primary key or the hidden row id (8 bytes in the record key).
 * - `common`: every other (clustered) primary key, as `encodeKeyValues(pk values, pk types)`.
 */
export type Handle =
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'common'; readonly encoded: Uint8Array };

export function intHandle(value: bigint): Handle {
  return { kind: 'int', value };
}

export function commonHandle(encoded: Uint8Array): Handle {
  return { kind: 'common', encoded };
}
