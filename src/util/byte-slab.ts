/**
 * Allocation of small caller-owned byte arrays (the codec's keys and row values, the embedded
 * store's result pages and payload copies): views into shared 8 KiB slabs instead of one
 * ArrayBuffer each. A fresh ArrayBuffer costs a zeroed off-heap
 * allocation plus a GC-tracked extension (~0.3-0.5 µs for a 19-byte key or a 200-byte row);
 * a view into a slab costs a tenth of that, and the GC frees a slab once no view of it is left.
 *
 * Callers get ordinary Uint8Arrays with a non-zero byteOffset: code must honour
 * byteOffset/byteLength (never use `.buffer` whole, never transfer or detach it), as for the
 * pages the embedded KV store hands out. A long-lived small view keeps its slab (8 KiB) alive;
 * outputs above MAX_POOLED bytes get their own buffer.
 */
const SLAB_BYTES = 8192;
/** Arrays up to this size come from the slab; larger ones get their own buffer. */
export const MAX_POOLED = 1024;

let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

/** A new, zero-filled byte array of `n` bytes (a slab region when small). */
export function allocBytes(n: number): Uint8Array {
  if (n > MAX_POOLED) return new Uint8Array(n);
  if (used + n > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const out = new Uint8Array(slab, used, n);
  used += n;
  return out;
}

/** Copies up to this many bytes with a loop (no subarray view to allocate). */
const LOOP_COPY = 64;

/** A pooled copy of `src[start, end)`. */
export function copyBytes(src: Uint8Array, start: number, end: number): Uint8Array {
  const n = end - start;
  const out = allocBytes(n);
  if (n <= LOOP_COPY) {
    for (let i = 0; i < n; i++) out[i] = src[start + i] as number;
  } else {
    out.set(src.subarray(start, end));
  }
  return out;
}
