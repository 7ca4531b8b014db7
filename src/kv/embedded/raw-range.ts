import type { Database, RangeOptions, RootDatabase, Transaction } from 'lmdb';
import type { KeyRange, KvPair, MappedPage, PairMapper } from '../kv.js';
import { copyBytes } from '../../util/index.js';
import { dbiAddress } from './lmdb-build.js';
import { NativeScanner, type ScanFunction } from './native-scan.js';
import { sharedPage } from './page-builder.js';
import { HEADER_BYTES, isLive, isLiveAt } from './value-format.js';

/**
 * Zero-copy range reads for the `data` database (lmdb 3.5.x internals, pinned in package.json).
 *
 * With `encoding: 'binary'` lmdb-js copies every key (Uint8Array.prototype.slice -> a new
 * Buffer) and every value (same) before handing them out; we then had to copy again to strip
 * the 9-byte header. This reader is a second handle on the same LMDB database whose hooks
 * return lmdb's own reused buffers instead (the key buffer plus offsets, the value buffer plus
 * size). scan() copies the live entries straight into one page allocation (page-builder.ts)
 * before advancing the cursor, so no view into LMDB memory ever escapes.
 *
 * Hooked members (checked at construction so an lmdb upgrade fails loudly, not silently):
 * - `readKey(target, start, end)`: called per entry to materialize the key from lmdb's key buffer;
 * - `decoder.decode(bytes, size)` with `decoderCopies = true`: gets the value bytes uncopied.
 * The handle is used for reads only (writes would go through the ordinary `data` handle).
 *
 * With the add-on's scan function (native-scan.ts) ranges are read through it instead, a run of
 * entries per native call; lmdb-js's iterator remains for builds without it.
 */
interface LmdbReadHooks {
  readKey: (target: Uint8Array, start: number, end: number) => unknown;
  decoder: { decode(bytes: Uint8Array, size: number): unknown } | null | undefined;
  decoderCopies: boolean | undefined;
}

export class RawRangeReader {
  private readonly db: Database<Buffer, Uint8Array>;
  /** Position of the current entry's key inside lmdb's key buffer (valid until the next entry). */
  private keyStart = 0;
  private keyEnd = 0;
  /** Byte length of the current entry's value (lmdb's value buffer may be longer). */
  private valueSize = 0;

  private readonly scanner: NativeScanner | undefined;

  constructor(root: RootDatabase<Buffer, string>, name: string, scanFn: ScanFunction | undefined) {
    this.db = root.openDB<Buffer, Uint8Array>({ name, keyEncoding: 'binary', encoding: 'binary' });
    const address = dbiAddress(this.db);
    this.scanner = scanFn !== undefined && address !== undefined ? new NativeScanner(scanFn, address) : undefined;
    const hooks = this.db as unknown as LmdbReadHooks;
    if (typeof hooks.readKey !== 'function' || hooks.decoder !== undefined) {
      throw new Error('embedded store: unsupported lmdb version (readKey/decoder hooks changed)');
    }
    hooks.readKey = (target, start, end) => {
      this.keyStart = start;
      this.keyEnd = end;
      return target;
    };
    hooks.decoder = {
      decode: (bytes, size) => {
        this.valueSize = size;
        return bytes;
      },
    };
    hooks.decoderCopies = true;
  }

  /** Whether ranges are read through the add-on's scan function. */
  get native(): boolean {
    return this.scanner !== undefined;
  }

  /**
   * Like scan(), but each live pair goes to `map` as offsets into reused key and value buffers
   * (valid only during the call: no view or copy per pair); only the last key of a full page is
   * copied.
   */
  scanMapped<T>(txn: Transaction, range: KeyRange, reverse: boolean, limit: number, map: PairMapper<T>): MappedPage<T> {
    const items: T[] = [];
    let lastKey: Uint8Array | undefined;
    const low = range.start.length === 0 ? undefined : range.start;
    const native = this.scanner;
    if (native !== undefined && NativeScanner.fits(low, range.end)) {
      native.each(txn, low, range.end, reverse, limit, (buf, ks, ke, vs, ve) => {
        if (!isLiveAt(buf, vs, ve)) return 0;
        if (items.push(map(buf, ks, ke, buf, vs + HEADER_BYTES, ve)) >= limit) lastKey = copyBytes(buf, ks, ke);
        return 1;
      });
      return { items, lastKey };
    }
    for (const entry of this.db.getRange(rangeOptions(txn, low, range.end, reverse))) {
      const value = entry.value;
      if (this.valueSize < HEADER_BYTES || !isLive(value)) continue;
      const k = entry.key;
      items.push(map(k, this.keyStart, this.keyEnd, value, HEADER_BYTES, this.valueSize));
      if (items.length >= limit) return { items, lastKey: copyBytes(k, this.keyStart, this.keyEnd) };
    }
    return { items, lastKey: undefined };
  }

  /**
   * Up to `limit` live pairs of the range (tombstones skipped, header stripped), all keys and
   * payloads copied into one fresh allocation the caller owns.
   */
  scan(txn: Transaction, range: KeyRange, reverse: boolean, limit: number): KvPair[] {
    const page = sharedPage;
    page.reset();
    const n = this.scanMapped(txn, range, reverse, limit, (key, ks, ke, value, vs, ve) => {
      page.append(key, ks, ke - ks);
      page.append(value, vs, ve - vs);
    }).items.length;
    const views = page.finish();
    const out = new Array<KvPair>(n);
    for (let i = 0; i < n; i++) out[i] = { key: views[2 * i] as Uint8Array, value: views[2 * i + 1] as Uint8Array };
    return out;
  }
}

/** lmdb-js ranges: forward is [start, end); reverse walks from `start` (high) down to `end` (low). */
function rangeOptions(transaction: Transaction, low: Uint8Array | undefined, high: Uint8Array, reverse: boolean): RangeOptions {
  if (!reverse) return { start: low, end: high, transaction };
  return { start: high, end: low, reverse: true, exclusiveStart: true, inclusiveEnd: true, transaction };
}
