/**
 * Builds a whole response (one or many packets) in one buffer, framing each payload with the
 * 3-byte length + sequence id header and splitting payloads >= 0xFFFFFF into chunks (with a
 * trailing empty chunk when the length is an exact multiple).
 * Spec: mysql-protocol.md §1.1 (framing, sequence ids).
 */
import { ByteWriter } from './byte-writer.js';
import { MAX_CHUNK } from './constants.js';

/** Responses bigger than this are handed over instead of copied out of the reusable buffer. */
const HANDOVER_SIZE = 64 * 1024;

export class PacketWriter extends ByteWriter {
  /** Sequence id of the next packet written. */
  seq = 0;
  private start = -1;

  /** Starts a packet: reserves its 4-byte header. */
  begin(): void {
    this.ensure(4);
    this.start = this.pos;
    this.pos += 4;
  }

  /** Ends the packet started by begin(): writes its header(s) and advances the sequence id. */
  end(): void {
    const start = this.start;
    this.start = -1;
    const len = this.pos - start - 4;
    if (len < MAX_CHUNK) {
      this.buf.writeUIntLE(len, start, 3);
      this.buf[start + 3] = this.seq;
      this.seq = (this.seq + 1) & 0xff;
      return;
    }
    this.split(start, len);
  }

  /** Rewrites a long payload at `start` as a series of MAX_CHUNK chunks plus a short tail. */
  private split(start: number, len: number): void {
    const payload = Buffer.from(this.buf.subarray(start + 4, start + 4 + len));
    this.pos = start;
    const chunks = Math.floor(len / MAX_CHUNK) + 1;
    this.ensure(len + chunks * 4);
    for (let off = 0; ; off += MAX_CHUNK) {
      const n = Math.min(MAX_CHUNK, len - off);
      this.u24(n);
      this.u8(this.seq);
      this.seq = (this.seq + 1) & 0xff;
      this.bytes(payload.subarray(off, off + n));
      if (n < MAX_CHUNK) break;
    }
  }

  /** Writes one complete packet with the given payload. */
  packet(payload: Uint8Array): void {
    this.begin();
    this.bytes(payload);
    this.end();
  }

  /**
   * The bytes written so far as a view of the writer's own buffer (no copy), for one write whose
   * outcome the caller reports with settle() before anything else is written.
   */
  pending(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  /**
   * Empties the writer after pending() was written (the sequence id is kept). `copied`: the
   * consumer copied the bytes out (a socket write the kernel took whole), so the buffer is
   * reused; otherwise the consumer keeps the view and the writer moves to a new buffer. A buffer
   * grown past HANDOVER_SIZE is not kept either way.
   */
  settle(copied: boolean): void {
    this.pos = 0;
    if (!copied || this.buf.length > HANDOVER_SIZE) this.buf = Buffer.allocUnsafe(Math.min(this.buf.length, HANDOVER_SIZE));
  }

  /**
   * Takes the bytes written so far and empties the writer (the sequence id is kept).
   * Small results are copied so the buffer can be reused; large ones are handed over.
   */
  take(): Buffer {
    const len = this.pos;
    this.pos = 0;
    if (len >= HANDOVER_SIZE) {
      const out = this.buf.subarray(0, len);
      this.buf = Buffer.allocUnsafe(Math.min(this.buf.length, HANDOVER_SIZE));
      return out;
    }
    const out = Buffer.allocUnsafe(len);
    this.buf.copy(out, 0, 0, len);
    return out;
  }
}
