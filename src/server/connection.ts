/**
 * One client connection: socket I/O (packet queue, one write per response, 'drain'
 * backpressure, input pausing) and the protocol state the command handlers share.
 * The handshake and command loop live in serve-connection.ts.
 * Spec: /work/shared/reference/mysql-protocol.md §1.1 (sequence ids).
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Engine, Session } from '../sql/session/types.js';
import { Status } from './constants.js';
import { PacketDecoder, type Packet } from './packet-decoder.js';
import { PacketWriter } from './packet-writer.js';
import { PreparedRegistry } from './prepared-registry.js';
import { PacketTooLarge } from './protocol-errors.js';
import type { ColumnsCache, ResponseSink } from './result-writer.js';

export interface ConnectionDeps {
  readonly engine: Engine;
  readonly logger: Logger;
  readonly maxAllowedPacket: number;
}

/** Pause reading from the socket while this many packets wait to be handled. */
const MAX_QUEUED = 64;
/** A peer that does not close after our FIN is cut off after this long. */
const END_GRACE_MS = 2000;

export class Connection implements ResponseSink {
  readonly writer = new PacketWriter();
  readonly host: string;
  readonly log: Logger;
  /** Effective capabilities (client & server), set by the handshake. */
  capabilities = 0;
  collationId = 46;
  multiStatements = false;
  /** The greeting's scramble (COM_CHANGE_USER tokens are computed from it). */
  scramble: Buffer = Buffer.alloc(0);
  user = '';
  session: Session | null = null;
  readonly statements = new PreparedRegistry();
  readonly columnsCache: ColumnsCache = new WeakMap();
  /** Incremented by every flush: a handler can tell whether part of its response is gone. */
  flushCount = 0;

  private readonly decoder: PacketDecoder;
  private readonly queue: Array<Packet | PacketTooLarge> = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private paused = false;

  constructor(
    readonly socket: Socket,
    readonly id: number,
    readonly deps: ConnectionDeps,
  ) {
    this.host = normalizeHost(socket.remoteAddress);
    this.log = deps.logger.child({ conn: id });
    this.decoder = new PacketDecoder(
      {
        packet: (p) => this.enqueue(p),
        tooLarge: (seq) => this.enqueue(new PacketTooLarge(seq)),
      },
      deps.maxAllowedPacket,
    );
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.decoder.push(chunk));
    socket.on('error', (err) => this.log.debug({ err: err.message }, 'socket error'));
    socket.on('close', () => this.onEnd());
    socket.on('end', () => this.onEnd());
  }

  get closed(): boolean {
    return this.ended;
  }

  private enqueue(item: Packet | PacketTooLarge): void {
    this.queue.push(item);
    if (this.queue.length >= MAX_QUEUED && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    this.signal();
  }

  private onEnd(): void {
    this.ended = true;
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * The next complete packet, or null once the peer is gone. Sets the sequence id of the
   * response to the packet's + 1. Throws PacketTooLarge.
   */
  async next(): Promise<Packet | null> {
    while (this.queue.length === 0) {
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const item = this.queue.shift() as Packet | PacketTooLarge;
    if (this.paused && this.queue.length < MAX_QUEUED / 2) {
      this.paused = false;
      this.socket.resume();
    }
    if (item instanceof PacketTooLarge) throw item;
    this.writer.seq = (item.seq + 1) & 0xff;
    return item;
  }

  /** Sends the buffered response with one socket write; waits for 'drain' when the socket is full. */
  async flush(): Promise<void> {
    if (this.writer.pos === 0) return;
    this.flushCount++;
    const buf = this.writer.take();
    if (this.socket.destroyed || this.socket.writableEnded) return;
    if (this.socket.write(buf)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }

  /** Status flags for OK/EOF, read from the session after each statement. */
  status(moreResults = false): number {
    const s = this.session;
    let flags = moreResults ? Status.MORE_RESULTS_EXISTS : 0;
    if (s === null) return flags | Status.AUTOCOMMIT;
    if (s.inTransaction()) flags |= Status.IN_TRANS;
    if (s.autocommit()) flags |= Status.AUTOCOMMIT;
    return flags;
  }

  /** The open session; commands only run after the handshake opened one. */
  requireSession(): Session {
    if (this.session === null) throw new Error('no session');
    return this.session;
  }

  /** Closes prepared statements and the session, exactly once per session. */
  async closeSession(): Promise<void> {
    const s = this.session;
    this.session = null;
    try {
      this.statements.closeAll();
    } finally {
      if (s !== null) await s.close();
    }
  }

  /** Flushes what is buffered, then ends the socket. */
  async end(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.ended = true;
      this.socket.end();
      setTimeout(() => this.socket.destroy(), END_GRACE_MS).unref();
    }
  }

  destroy(): void {
    this.ended = true;
    this.socket.destroy();
    this.signal();
  }
}

function normalizeHost(addr: string | undefined): string {
  if (addr === undefined) return 'unknown';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}
