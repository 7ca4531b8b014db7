import type { KeyRange, KvPair, ScanOptions, Snapshot } from '../kv/kv.js';
import { compareBytes, keyNext } from '../util/index.js';
import { lowerBound, type BufferEntry, type WriteBuffer } from './write-buffer.js';

/** Extra snapshot pairs fetched per page to make up for buffered deletes (bounds page size). */
const MAX_EXTRA = 1024;

/**
 * Up to `opts.limit` live pairs of [start, end) merging `snap` with the write buffer: buffered
 * puts appear (and replace snapshot values), buffered deletes hide snapshot keys.
 *
 * Paging: each snapshot page asks for `need + min(bufferedInRange, MAX_EXTRA)` pairs. Within the
 * key span a page covers, at most `bufferedInRange` snapshot pairs can be hidden, so one page
 * usually completes the scan; when the cap bites, the next page starts past the covered span.
 */
export async function mergedScan(
  snap: Snapshot,
  buf: WriteBuffer,
  range: KeyRange,
  opts: ScanOptions,
): Promise<KvPair[]> {
  if (buf.size === 0) return snap.scan(range, opts);
  if (opts.limit <= 0 || compareBytes(range.start, range.end) >= 0) return [];
  return opts.reverse === true ? scanReverse(snap, buf, range, opts.limit) : scanForward(snap, buf, range, opts.limit);
}

function pageLimit(entries: readonly BufferEntry[], start: Uint8Array, end: Uint8Array, need: number): number {
  const inRange = lowerBound(entries, end) - lowerBound(entries, start);
  return need + Math.min(inRange, MAX_EXTRA);
}

async function scanForward(snap: Snapshot, buf: WriteBuffer, range: KeyRange, limit: number): Promise<KvPair[]> {
  const out: KvPair[] = [];
  let lo = range.start;
  const hi = range.end;
  for (;;) {
    const pageSize = pageLimit(buf.ordered(), lo, hi, limit - out.length);
    const page = await snap.scan({ start: lo, end: hi }, { limit: pageSize });
    const exhausted = page.length < pageSize;
    const upper = exhausted ? hi : keyNext((page[page.length - 1] as KvPair).key);
    const entries = buf.ordered();
    let i = lowerBound(entries, lo);
    const iEnd = lowerBound(entries, upper);
    let p = 0;
    while (out.length < limit && (p < page.length || i < iEnd)) {
      const e = i < iEnd ? (entries[i] as BufferEntry) : undefined;
      const s = p < page.length ? (page[p] as KvPair) : undefined;
      const c = e === undefined ? 1 : s === undefined ? -1 : compareBytes(e.key, s.key);
      if (c > 0) {
        out.push(s as KvPair);
        p++;
        continue;
      }
      if (c === 0) p++;
      i++;
      const entry = e as BufferEntry;
      if (!entry.dead && entry.value !== null) out.push({ key: entry.key, value: entry.value });
    }
    if (exhausted || out.length >= limit) return out;
    lo = upper;
  }
}

async function scanReverse(snap: Snapshot, buf: WriteBuffer, range: KeyRange, limit: number): Promise<KvPair[]> {
  const out: KvPair[] = [];
  const lo = range.start;
  let hi = range.end;
  for (;;) {
    const pageSize = pageLimit(buf.ordered(), lo, hi, limit - out.length);
    const page = await snap.scan({ start: lo, end: hi }, { limit: pageSize, reverse: true });
    const exhausted = page.length < pageSize;
    const lower = exhausted ? lo : (page[page.length - 1] as KvPair).key;
    const entries = buf.ordered();
    let i = lowerBound(entries, hi) - 1;
    const iStop = lowerBound(entries, lower);
    let p = 0;
    while (out.length < limit && (p < page.length || i >= iStop)) {
      const e = i >= iStop ? (entries[i] as BufferEntry) : undefined;
      const s = p < page.length ? (page[p] as KvPair) : undefined;
      const c = e === undefined ? -1 : s === undefined ? 1 : compareBytes(e.key, s.key);
      if (c < 0) {
        out.push(s as KvPair);
        p++;
        continue;
      }
      if (c === 0) p++;
      i--;
      const entry = e as BufferEntry;
      if (!entry.dead && entry.value !== null) out.push({ key: entry.key, value: entry.value });
    }
    if (exhausted || out.length >= limit) return out;
    hi = lower;
  }
}
