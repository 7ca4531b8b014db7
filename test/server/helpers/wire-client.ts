/**
 * A raw MySQL client for hostile-input tests: writes arbitrary bytes (optionally split across
 * several socket writes), reads framed packets with a deadline, and never throws on a timeout
 * or a closed socket, so a test can tell "answered", "closed" and "hung" apart.
 */
import { connect, type Socket } from 'node:net';
import { PacketDecoder, type Packet } from '../../../src/server/packet-decoder.js';
import { decodeHandshakeV10, type HandshakeV10 } from '../../../src/server/packets/handshake-v10.js';
import { frame, handshakeResponse, nativeToken, type HandshakeResponseSpec } from '../../helpers/mysql-packets.js';

export type ReadResult = Packet | 'closed' | 'timeout';

export class WireClient {
  private readonly packets: Packet[] = [];
  private waiter: (() => void) | null = null;
  closed = false;
  /** Bytes received in total (a runaway response shows up here). */
  received = 0;
  private readonly decoder = new PacketDecoder({ packet: (p) => this.push(p), tooLarge: () => undefined }, 1 << 30);

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (c: Buffer) => {
      this.received += c.length;
      this.decoder.push(c);
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async connect(port: number): Promise<WireClient> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new WireClient(socket);
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  private push(p: Packet): void {
    this.packets.push(p);
    this.wake();
  }

  /** The next packet, 'closed' once the server closed and everything was read, or 'timeout'. */
  async read(timeoutMs: number): Promise<ReadResult> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const p = this.packets.shift();
      if (p !== undefined) return p;
      if (this.closed) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  /** Reads (and drops) packets until the server closes; false if it is still open after `timeoutMs`. */
  async waitClosed(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.read(Math.max(0, deadline - Date.now()));
      if (r === 'closed') return true;
      if (r === 'timeout') return false;
    }
  }

  /** Writes `bytes`, cut at the given offsets into separate socket writes with a yield in between. */
  async write(bytes: Uint8Array, cuts: readonly number[] = []): Promise<void> {
    const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
    let from = 0;
    for (const to of [...points, bytes.length]) {
      if (this.closed || this.socket.destroyed) return;
      this.socket.write(bytes.subarray(from, to));
      from = to;
      if (to < bytes.length) await new Promise<void>((r) => setImmediate(r));
    }
  }

  send(seq: number, payload: Uint8Array): void {
    if (!this.socket.destroyed) this.socket.write(frame(seq, payload));
  }

  /** Half-closes: the server sees end-of-stream. */
  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Reads the greeting; null when the server sent something else or closed. */
  async greeting(timeoutMs = 2000): Promise<HandshakeV10 | null> {
    const g = await this.read(timeoutMs);
    if (typeof g === 'string' || g.payload[0] !== 0x0a) return null;
    return decodeHandshakeV10(g.payload);
  }

  /** Greeting + native-password login as `user`; the server's reply (OK expected). */
  async login(user = 'root', password = '', extra: HandshakeResponseSpec = {}): Promise<ReadResult> {
    const hello = await this.greeting();
    if (hello === null) return 'closed';
    this.send(1, handshakeResponse({ user, token: nativeToken(password, hello.scramble), ...extra }));
    return this.read(2000);
  }
}

/** ERR payload fields (4.1 layout), or null for any other packet. */
export function errOf(r: ReadResult): { errno: number; message: string } | null {
  if (typeof r === 'string' || r.payload[0] !== 0xff || r.payload.length < 3) return null;
  const p = r.payload;
  return { errno: p.readUInt16LE(1), message: p.toString('utf8', p[3] === 0x23 ? 9 : 3) };
}
