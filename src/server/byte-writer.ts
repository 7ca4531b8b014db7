/**
 * Growable little-endian writer that builds whole responses in one Buffer.
 * Spec: mysql-protocol.md §1.1 (integer and lenenc encodings).
 */
import { encodeSurrogateEscape, isWellFormedText } from '../util/index.js';

const INITIAL_SIZE = 16 * 1024;

export class ByteWriter {
  buf: Buffer;
  pos = 0;

  constructor(size = INITIAL_SIZE) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v & 0xff;
  }

  u16(v: number): void {
    this.ensure(2);
    this.buf.writeUInt16LE(v & 0xffff, this.pos);
    this.pos += 2;
  }

  u24(v: number): void {
    this.ensure(3);
    this.buf.writeUIntLE(v & 0xffffff, this.pos, 3);
    this.pos += 3;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }

  /** 8 bytes; the value is taken modulo 2^64 (signed values are written two's complement). */
  u64(v: bigint): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt.asUintN(64, v), this.pos);
    this.pos += 8;
  }

  f32(v: number): void {
    this.ensure(4);
    this.buf.writeFloatLE(v, this.pos);
    this.pos += 4;
  }

  f64(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  zeros(n: number): void {
    this.ensure(n);
    // Buffer.fill goes through argument checks and a native call: a loop is faster for the
    // one or two bytes of a binary row's NULL bitmap, written once per row.
    if (n <= 16) for (let i = 0; i < n; i++) this.buf[this.pos + i] = 0;
    else this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** UTF-8 text without length or terminator (rest-of-packet strings). */
  string(s: string): void {
    if (!isWellFormedText(s)) return this.bytes(encodeSurrogateEscape(s));
    const n = Buffer.byteLength(s, 'utf8');
    this.ensure(n);
    this.pos += this.buf.write(s, this.pos, n, 'utf8');
  }

  nulString(s: string): void {
    this.string(s);
    this.u8(0);
  }

  /** Length-encoded integer; `v` must be in [0, 2^64). */
  lenencInt(value: number | bigint): void {
    const v = typeof value === 'bigint' && value <= 0xffffffn ? Number(value) : value;
    if (typeof v === 'number' && v < 0xfb) {
      this.u8(v);
    } else if (v < 0x10000) {
      this.u8(0xfc);
      this.u16(Number(v));
    } else if (v < 0x1000000) {
      this.u8(0xfd);
      this.u24(Number(v));
    } else {
      this.u8(0xfe);
      this.u64(BigInt(v));
    }
  }

  lenencBytes(b: Uint8Array): void {
    this.lenencInt(b.length);
    this.bytes(b);
  }

  /**
   * Encodes straight after a one-byte length prefix (room for 3 bytes per UTF-16 unit is
   * reserved), so no separate byteLength pass; a value of 251+ bytes is moved up to make room
   * for its wider prefix.
   */
  lenencString(s: string): void {
    if (!isWellFormedText(s)) return this.lenencBytes(encodeSurrogateEscape(s));
    this.ensure(s.length * 3 + 9);
    const at = this.pos;
    const n = this.buf.write(s, at + 1, 'utf8');
    if (n < 0xfb) {
      this.buf[at] = n;
      this.pos = at + 1 + n;
      return;
    }
    const prefix = n < 0x10000 ? 3 : n < 0x1000000 ? 4 : 9;
    this.buf.copyWithin(at + prefix, at + 1, at + 1 + n);
    this.lenencInt(n);
    this.pos = at + prefix + n;
  }
}
