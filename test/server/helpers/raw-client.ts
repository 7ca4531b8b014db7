/**
 * A minimal raw MySQL client over a TCP socket for protocol-level tests: reads framed packets,
 * writes payloads with explicit sequence ids, performs a native-password login.
 */
import { connect, type Socket } from 'node:net';
import { nativeToken } from '../../../src/server/auth-crypto.js';
import { PacketWriter } from '../../../src/server/packet-writer.js';
import { PacketDecoder, type Packet } from '../../../src/server/packet-decoder.js';
import { decodeHandshakeV10, type HandshakeV10 } from '../../../src/server/packets/handshake-v10.js';
import { encodeHandshakeResponse } from '../../../src/server/packets/handshake-response.js';

export const CLIENT_CAPS = 0x003ba20f; // LONG_PASSWORD..CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS, SECURE, MULTI_STATEMENTS/RESULTS, PLUGIN_AUTH, ATTRS, LENENC

export class RawClient {
  private readonly packets: Packet[] = [];
  private waiter: (() => void) | null = null;
  closed = false;
  private readonly decoder = new PacketDecoder(
    { packet: (p) => this.push(p), tooLarge: () => undefined },
    1 << 30,
  );

  private constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => this.decoder.push(c));
    socket.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
    socket.on('error', () => undefined);
  }

  static async connect(port: number): Promise<RawClient> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawClient(socket);
  }

  private push(p: Packet): void {
    this.packets.push(p);
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  /** Next packet, or null when the server closed the connection. */
  async read(timeoutMs = 5000): Promise<Packet | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.packets.length === 0) {
      if (this.closed) return null;
      if (Date.now() > deadline) throw new Error('timeout waiting for packet');
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 50);
      });
    }
    return this.packets.shift() as Packet;
  }

  send(seq: number, payload: Uint8Array): void {
    const w = new PacketWriter();
    w.seq = seq;
    w.packet(payload);
    this.socket.write(w.take());
  }

  sendRaw(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** Reads the greeting and logs in as `user` with native auth. Returns the greeting and the reply. */
  async login(user = 'root', password = '', opts: { caps?: number; plugin?: string; token?: Buffer; database?: string } = {}): Promise<{ hello: HandshakeV10; reply: Packet | null }> {
    const greeting = await this.read();
    if (greeting === null) throw new Error('no greeting');
    const hello = decodeHandshakeV10(greeting.payload);
    const w = new PacketWriter();
    encodeHandshakeResponse(w, {
      capabilities: opts.caps ?? CLIENT_CAPS,
      maxPacket: 0,
      charset: 45,
      user,
      authResponse: opts.token ?? nativeToken(password, hello.scramble),
      database: opts.database ?? '',
      authPlugin: opts.plugin ?? 'mysql_native_password',
      attributes: new Map([['_client_name', 'raw']]),
    });
    this.send(1, w.take());
    return { hello, reply: await this.read() };
  }

  /** Stops reading from the socket (the server's writes back up once the kernel buffers fill). */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Command payload: command byte + body. */
export function command(code: number, body: Uint8Array | string = new Uint8Array(0)): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  return Buffer.concat([Buffer.from([code]), b]);
}

/** Parses an ERR payload (4.1 layout). */
export function parseErr(p: Packet): { errno: number; sqlState: string; message: string } {
  const b = p.payload;
  if (b[0] !== 0xff) throw new Error(`not an ERR packet: 0x${(b[0] ?? 0).toString(16)}`);
  return { errno: b.readUInt16LE(1), sqlState: b.toString('latin1', 4, 9), message: b.toString('utf8', 9) };
}
