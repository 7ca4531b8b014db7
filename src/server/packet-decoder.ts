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
  /** Stop decoding after the next packet (holdAfterNext) / stopped: bytes are kept raw. */
  private holdNext = false;
  private held = false;

  constructor(
    private readonly sink: PacketSink,
    private readonly maxPacket: number,
  ) {}

  /** Bytes held while waiting for the rest of a packet (tests: nothing stays after tooLarge). */
  get buffered(): number {
    return this.pendingLen + this.partsLen;
  }

  push(chunk: Buffer): void {
    if (this.dead) return;
    if (this.held) {
      this.pending.push(chunk);
      this.pendingLen += chunk.length;
      return;
    }
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
        // up to max_allowed_packet of chunks: release them now, not when the connection is collected
        this.parts = [];
        this.partsLen = 0;
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
      if (this.held) break;
    }
    if (o < buf.length && !this.dead) {
      this.pending = [buf.subarray(o)];
      this.pendingLen = buf.length - o;
    }
  }

  /**
   * Decodes no further than the next logical packet: what follows it is kept as raw bytes (after
   * an SSLRequest they are the start of the TLS handshake) until release() or resume().
   */
  holdAfterNext(): void {
    this.holdNext = true;
  }

  /** Ends a hold: returns the raw bytes received after the held packet and forgets them. */
  release(): Buffer {
    const rest = Buffer.concat(this.pending, this.pendingLen);
    this.pending = [];
    this.pendingLen = 0;
    this.needed = 4;
    this.held = false;
    this.holdNext = false;
    return rest;
  }

  /** Ends a hold and decodes the bytes kept meanwhile. */
  resume(): void {
    const rest = this.release();
    if (rest.length > 0) this.push(rest);
  }

  private chunk(seq: number, len: number, payload: Buffer): void {
    if (len === MAX_CHUNK) {
      this.parts.push(payload);
      this.partsLen += len;
      return;
    }
    if (this.parts.length === 0) {
      this.emit({ seq, payload });
      return;
    }
    this.parts.push(payload);
    const whole = Buffer.concat(this.parts, this.partsLen + len);
    this.parts = [];
    this.partsLen = 0;
    this.emit({ seq, payload: whole });
  }

  private emit(p: Packet): void {
    if (this.holdNext) {
      this.holdNext = false;
      this.held = true;
    }
    this.sink.packet(p);
  }
}
