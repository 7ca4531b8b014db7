/**
 * Incoming framing: turns socket chunks into logical packets. Reads every complete packet of a
 * chunk before returning, re-assembles payloads split into 0xFFFFFF chunks (the logical packet
 * ends at the first shorter chunk, possibly empty) and enforces max_allowed_packet from the
 * headers alone, before buffering the payload. Bytes are only concatenated once a whole
 * packet is available. Spec: mysql-protocol.md §1.1.
 */
import { MAX_CHUNK } from './constants.js';

export interface Packet {
  /** Sequence id of the last physical chunk. */
  readonly seq: number;
  readonly payload: Buffer;
}

export interface PacketSink {
  packet(p: Packet): void;
  /** The logical packet announced with sequence id `seq` exceeds the limit; nothing more is decoded. */
  tooLarge(seq: number): void;
}

export class PacketDecoder {
  private pending: Buffer[] = [];
  private pendingLen = 0;
  /** Bytes needed before parsing can make progress. */
  private needed = 4;
  /** Chunks of a split payload collected so far. */
  private parts: Buffer[] = [];
  private partsLen = 0;
  private dead = false;

  constructor(
    private readonly sink: PacketSink,
    private readonly maxPacket: number,
  ) {}

  push(chunk: Buffer): void {
    if (this.dead) return;
    if (this.pendingLen === 0) {
      this.parse(chunk);
      return;
    }
    this.pending.push(chunk);
    this.pendingLen += chunk.length;
    if (this.pendingLen < this.needed) return;
    const all = Buffer.concat(this.pending, this.pendingLen);
    this.pending = [];
    this.pendingLen = 0;
    this.parse(all);
  }

  private parse(buf: Buffer): void {
    let o = 0;
    while (!this.dead) {
      const rem = buf.length - o;
      if (rem < 4) {
        this.needed = 4;
        break;
      }
      const len = (buf[o] as number) | ((buf[o + 1] as number) << 8) | ((buf[o + 2] as number) << 16);
      const seq = buf[o + 3] as number;
      if (this.partsLen + len > this.maxPacket) {
        this.dead = true;
        this.sink.tooLarge(seq);
        return;
      }
      if (rem < 4 + len) {
        this.needed = 4 + len;
        break;
      }
      const payload = buf.subarray(o + 4, o + 4 + len);
      o += 4 + len;
      this.chunk(seq, len, payload);
    }
    if (o < buf.length && !this.dead) {
      this.pending = [buf.subarray(o)];
      this.pendingLen = buf.length - o;
    }
  }

  private chunk(seq: number, len: number, payload: Buffer): void {
    if (len === MAX_CHUNK) {
      this.parts.push(payload);
      this.partsLen += len;
      return;
    }
    if (this.parts.length === 0) {
      this.sink.packet({ seq, payload });
      return;
    }
    this.parts.push(payload);
    const whole = Buffer.concat(this.parts, this.partsLen + len);
    this.parts = [];
    this.partsLen = 0;
    this.sink.packet({ seq, payload: whole });
  }
}
