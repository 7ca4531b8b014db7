import { copyBytes } from '../util/index.js';

/**
 * A growable output buffer with a DataView, used by every encoder so values are written in
 * place (no per-byte array pushes). `finish()` copies the written bytes out at their exact size.
 */
export class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes after `pos`. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(this.pos + n);
  }

  private grow(need: number): void {
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** A copy of the bytes written so far (pooled: see util/byte-slab.ts). */
  finish(): Uint8Array {
    return copyBytes(this.buf, 0, this.pos);
  }
}

const DEFAULT_CAPACITY = 1024;
const MAX_RETAINED = 1 << 20;
let shared = new ByteWriter(DEFAULT_CAPACITY);

/**
 * The module-wide scratch writer, reset. Only the public entry points call this (never code they
 * call), so two users never share it at once; JS is single-threaded and encoders never await.
 */
export function sharedWriter(): ByteWriter {
  if (shared.buf.length > MAX_RETAINED) shared = new ByteWriter(DEFAULT_CAPACITY);
  shared.pos = 0;
  return shared;
}

const scratchView = new DataView(new ArrayBuffer(8));
const scratchBytes = new Uint8Array(scratchView.buffer);

/** A DataView over a copy of `buf[pos..pos+8)`, for 8-byte reads without a per-call DataView. */
export function view8(buf: Uint8Array, pos: number): DataView {
  for (let i = 0; i < 8; i++) scratchBytes[i] = buf[pos + i] as number;
  return scratchView;
}
