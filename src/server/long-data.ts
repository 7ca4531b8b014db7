/**
 * The bytes one prepared-statement parameter received through COM_STMT_SEND_LONG_DATA. Chunks
 * are appended into one buffer that grows by doubling (amortized O(1) per chunk, at most
 * max_allowed_packet bytes, no per-chunk objects), so a client sending millions of 1-byte
 * chunks costs neither quadratic time nor per-chunk memory. Going past the limit poisons the
 * parameter: like MySQL (Item_param::set_longdata), the next execute fails instead of running
 * with truncated data.
 * Spec: /work/shared/reference/mysql-protocol.md §2.2 (long data).
 */

const MIN_CAPACITY = 64;

export class LongData {
  private buf: Buffer = Buffer.alloc(0);
  private len = 0;
  /** True once the chunks exceeded the limit; the data is dropped. */
  overflow = false;

  /** Appends `data` unless the total would exceed `limit` bytes (then the parameter overflows). */
  append(data: Uint8Array, limit: number): void {
    if (this.overflow) return;
    const need = this.len + data.length;
    if (need > limit) {
      this.overflow = true;
      this.buf = Buffer.alloc(0);
      this.len = 0;
      return;
    }
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.min(limit, Math.max(need, this.buf.length * 2, MIN_CAPACITY)));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.buf.set(data, this.len);
    this.len = need;
  }

  get length(): number {
    return this.len;
  }

  /** A view of the bytes received so far. */
  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }

  static of(...chunks: Uint8Array[]): LongData {
    const d = new LongData();
    for (const c of chunks) d.append(c, Number.MAX_SAFE_INTEGER);
    return d;
  }
}
