/**
 * How ShaleDB's keys and values sit in etcd.
 *
 * Keys: `<ns>d<key>` for the SQL layer's keys and `<ns>s<name>` for the store's own bookkeeping
 * (GC safe points), where `<ns>` is `<prefix>/` for a URL with a /prefix and empty otherwise.
 * Values: one flag byte then the payload: 0x01 + value for a live key, a lone 0x00 for a
 * tombstone. Deletes are written as tombstones so that every mutation is a put whose mod_revision
 * a later commit can compare (etcd lets a deleted key pass a mod_revision compare); the GC
 * removes tombstones once no snapshot can see them.
 *
 * Example (prefix 'db1'): SQL key 74 80 00 00 00 00 00 00 2a ('t' + table 42) with value 'hi'
 * is stored as key 64 62 31 2f 64 74 80 .. 2a ("db1/d" + key) with value 01 68 69; deleting it
 * writes value 00.
 */
import { utf8Encode as utf8 } from '../../util/index.js';

export const LIVE = 0x01;
export const TOMBSTONE = 0x00;
const TOMBSTONE_VALUE = new Uint8Array([TOMBSTONE]);

export class Keyspace {
  private readonly data: Uint8Array;
  private readonly system: Uint8Array;

  constructor(prefix: string) {
    const ns = prefix === '' ? '' : `${prefix}/`;
    this.data = utf8(`${ns}d`);
    this.system = utf8(`${ns}s`);
  }

  /** The etcd key of SQL key `key`. */
  dataKey(key: Uint8Array): Uint8Array {
    return concat(this.data, key);
  }

  /** The SQL key of etcd key `stored` (which starts with the data prefix). */
  userKey(stored: Uint8Array): Uint8Array {
    return tail(stored, this.data.length);
  }

  /** The etcd key of the store's own record `name`. */
  systemKey(name: string): Uint8Array {
    return concat(this.system, utf8(name));
  }

  /** [start, end) over every system key beginning with `name`. */
  systemRange(name: string): { start: Uint8Array; end: Uint8Array } {
    const start = this.systemKey(name);
    return { start, end: prefixEnd(start) };
  }

  /** [start, end) of every data key. */
  dataRange(): { start: Uint8Array; end: Uint8Array } {
    return { start: this.data, end: prefixEnd(this.data) };
  }
}

export function encodeLive(value: Uint8Array): Uint8Array {
  const out = new Uint8Array(value.length + 1);
  out[0] = LIVE;
  out.set(value, 1);
  return out;
}

export function tombstone(): Uint8Array {
  return TOMBSTONE_VALUE;
}

/** The payload of a stored value, or undefined for a tombstone. */
export function decodeValue(stored: Uint8Array): Uint8Array | undefined {
  if (stored.length === 0 || stored[0] !== LIVE) return undefined;
  return tail(stored, 1);
}

/**
 * `bytes` from `start` on, as a plain Uint8Array view (no copy: each gRPC response is a fresh
 * buffer owned by the caller, but Buffer would not compare equal to Uint8Array in callers).
 */
function tail(bytes: Uint8Array, start: number): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start);
}

/** The smallest key greater than every key starting with `prefix`. */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = prefix.slice();
  for (let i = end.length - 1; i >= 0; i--) {
    if ((end[i] as number) < 0xff) {
      end[i] = (end[i] as number) + 1;
      return end.slice(0, i + 1);
    }
  }
  return new Uint8Array([0]); // etcd: '\0' as range_end means "to the end of the keyspace"
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
