/**
 * Bounds-checked little-endian reader over one packet payload (untrusted bytes).
 * Every read past the end throws MalformedPacket. Spec: mysql-protocol.md §1.1 (lenenc).
 */
import { MalformedPacket } from './protocol-errors.js';

export class ByteReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    pos = 0,
  ) {
    this.pos = pos;
  }

  remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number): number {
    const at = this.pos;
    if (n < 0 || at + n > this.buf.length) throw new MalformedPacket(`need ${n} bytes at ${at}, have ${this.buf.length - at}`);
    this.pos = at + n;
    return at;
  }

  u8(): number {
    return this.buf[this.need(1)] as number;
  }

  u16(): number {
    return this.buf.readUInt16LE(this.need(2));
  }

  u24(): number {
    return this.buf.readUIntLE(this.need(3), 3);
  }

  u32(): number {
    return this.buf.readUInt32LE(this.need(4));
  }

  u64(): bigint {
    return this.buf.readBigUInt64LE(this.need(8));
  }

  advance(n: number): void {
    this.need(n);
  }

  /** A view (no copy) of the next `n` bytes. */
  bytes(n: number): Buffer {
    const at = this.need(n);
    return this.buf.subarray(at, at + n);
  }

  /** The rest of the payload as a view. */
  rest(): Buffer {
    return this.bytes(this.remaining());
  }

  /**
   * Length-encoded integer. 0xFB (NULL) and 0xFF are not valid here; values above 2^53 are
   * rejected since they can only be lengths or counts that no real packet carries.
   */
  lenencInt(): number {
    const first = this.u8();
    if (first < 0xfb) return first;
    if (first === 0xfc) return this.u16();
    if (first === 0xfd) return this.u24();
    if (first === 0xfe) {
      const v = this.u64();
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new MalformedPacket('length-encoded integer too large');
      return Number(v);
    }
    throw new MalformedPacket(`invalid length-encoded integer prefix 0x${first.toString(16)}`);
  }

  lenencBytes(): Buffer {
    return this.bytes(this.lenencInt());
  }

  lenencString(): string {
    return this.lenencBytes().toString('utf8');
  }

  /** Bytes up to (not including) the next NUL; the NUL is consumed. A missing NUL is malformed. */
  nulBytes(): Buffer {
    const end = this.buf.indexOf(0, this.pos);
    if (end < 0) throw new MalformedPacket('missing NUL terminator');
    const out = this.buf.subarray(this.pos, end);
    this.pos = end + 1;
    return out;
  }

  nulString(): string {
    return this.nulBytes().toString('utf8');
  }

  /** Like nulString, but a missing NUL takes the rest of the payload (lenient, for trailing fields). */
  nulStringOrRest(): string {
    const end = this.buf.indexOf(0, this.pos);
    if (end < 0) return this.rest().toString('utf8');
    return this.nulString();
  }
}
