/**
 * Caller-owned result memory for the embedded store's reads.
 *
 * Every new ArrayBuffer costs about a microsecond (backing store + GC tracking), which dominated
 * get/batchGet/scan. So byte strings copied out of LMDB memory are staged in one reusable
 * scratch buffer and then copied into ONE region per result page, handed out as Uint8Array views
 * of it; small regions are carved from the shared slab of util/byte-slab.ts.
 *
 * Ownership contract: a region is never handed out twice and never written after it is
 * returned, so each view belongs to its caller. Views share an underlying ArrayBuffer: callers
 * must respect byteOffset/byteLength (never use `.buffer` whole, never transfer/detach it).
 * A view keeps its whole slab/page alive (bounded: one 8 KiB slab or one page).
 * Single-threaded, synchronous use only (append ... finish with no await between).
 */
import { allocBytes, MAX_POOLED } from '../../util/index.js';

/**
 * A caller-owned region of `len` bytes that the caller overwrites whole (contents undefined):
 * large ones skip the zero fill.
 */
function allocFilled(len: number): Uint8Array {
  if (len > MAX_POOLED) {
    const b = Buffer.allocUnsafeSlow(len);
    return new Uint8Array(b.buffer, b.byteOffset, len);
  }
  return allocBytes(len);
}

/** Copies src[srcStart, srcStart + len) to dst at dstStart without creating Buffer objects. */
export function copyInto(src: Uint8Array, srcStart: number, len: number, dst: Uint8Array, dstStart: number): void {
  if (len <= 32) {
    for (let i = 0; i < len; i++) dst[dstStart + i] = src[srcStart + i] as number;
  } else {
    dst.set(new Uint8Array(src.buffer, src.byteOffset + srcStart, len), dstStart);
  }
}

const INITIAL_SCRATCH = 64 * 1024;
/** A scratch buffer grown past this is dropped after use so one huge page does not pin memory. */
const MAX_KEPT_SCRATCH = 1024 * 1024;

export class PageBuilder {
  private scratch = new Uint8Array(INITIAL_SCRATCH);
  private used = 0;
  /** ends[i] = end offset of piece i in scratch (pieces are contiguous, in append order). */
  private readonly ends: number[] = [];

  /** Discards staged pieces (call before starting a page in case a previous one threw). */
  reset(): void {
    this.used = 0;
    this.ends.length = 0;
  }

  /** Stages a copy of src[start, start + len); src may be reused by its owner right after. */
  append(src: Uint8Array, start: number, len: number): void {
    const need = this.used + len;
    if (need > this.scratch.length) this.grow(need);
    copyInto(src, start, len, this.scratch, this.used);
    this.used = need;
    this.ends.push(need);
  }

  /** Pieces staged so far. */
  get count(): number {
    return this.ends.length;
  }

  /** Copies every staged piece into one fresh allocation; returns one view per piece and resets. */
  finish(): Uint8Array[] {
    const n = this.ends.length;
    const views = new Array<Uint8Array>(n);
    if (n === 0) return views;
    const page = allocFilled(this.used);
    page.set(this.scratch.subarray(0, this.used));
    // new Uint8Array(buffer, offset, length) costs about a third of subarray() (no species lookup).
    const ab = page.buffer;
    const base = page.byteOffset;
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const end = this.ends[i] as number;
      views[i] = new Uint8Array(ab, base + prev, end - prev);
      prev = end;
    }
    this.reset();
    if (this.scratch.length > MAX_KEPT_SCRATCH) this.scratch = new Uint8Array(INITIAL_SCRATCH);
    return views;
  }

  private grow(need: number): void {
    let size = this.scratch.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.scratch.subarray(0, this.used));
    this.scratch = next;
  }
}

/** The builder shared by all snapshots of this process (safe: pages are built synchronously). */
export const sharedPage = new PageBuilder();
