/**
 * The ascending order (unsigned bytes, i.e. memcmp order) of `count` byte strings of one width
 * stored back to back in `bytes`: record i is bytes[i * width, (i + 1) * width). A least
 * significant digit radix sort: one stable counting pass per byte position, from the last to the
 * first, skipping positions where every record has the same byte. No comparator calls, so 100k
 * index-key suffixes of 16 bytes sort in a few milliseconds where a byte comparator under
 * Array.prototype.sort took ~100 ms (its calls, and its fall-through on shared leading bytes).
 *
 * Example: width 2, bytes `01 02 | 00 ff | 01 01` -> order [1, 2, 0].
 */
export function radixOrder(bytes: Uint8Array, width: number, count: number): Uint32Array {
  if (bytes.length < width * count) throw new RangeError(`radixOrder: ${count} records of ${width} bytes need ${width * count} bytes, got ${bytes.length}`);
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let next = new Uint32Array(count);
  const starts = new Uint32Array(256);
  for (let b = width - 1; b >= 0 && count > 1; b--) {
    starts.fill(0);
    for (let i = 0, at = b; i < count; i++, at += width) {
      const d = bytes[at] as number;
      starts[d] = (starts[d] as number) + 1;
    }
    if (starts[bytes[b] as number] === count) continue; // one byte value everywhere: the order stands
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const n = starts[d] as number;
      starts[d] = sum;
      sum += n;
    }
    for (let i = 0; i < count; i++) {
      const r = order[i] as number;
      const d = bytes[r * width + b] as number;
      const to = starts[d] as number;
      next[to] = r;
      starts[d] = to + 1;
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}
