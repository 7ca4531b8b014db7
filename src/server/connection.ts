/**
 * One client connection: socket I/O (packet queue, one write per response, sent with the
 * other connections' replies of the same event-loop turn (reply-batch.ts), 'drain'
 * backpressure, input pausing) and the protocol state the command handlers share.
 * The handshake and command loop live in serve-connection.ts.
 * Spec: /work/shared/reference/mysql-protocol.md §1.1 (sequence ids).
 */
import type { Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import type { Engine, Session } from '../sql/session/types.js';
import { Status } from './constants.js';
import { PacketDecoder, type Packet } from './packet-decoder.js';
import { PacketWriter } from './packet-writer.js';
import { readThroughSharedBuffer } from './socket-input.js';
import { PreparedRegistry } from './prepared-registry.js';
import { PacketTooLarge } from './protocol-errors.js';
import type { ColumnsCache, ResponseSink } from './result-writer.js';
import { queueReply, type QueuedReply } from './reply-batch.js';

export interface ConnectionDeps {
  readonly engine: Engine;
  readonly logger: Logger;
  readonly maxAllowedPacket: number;
  /** Set when TLS is configured: the greeting then advertises CLIENT_SSL (see tls.ts). */
  readonly tls?: SecureContext;
}

/** Pause reading from the socket while this many packets wait to be handled. */
const MAX_QUEUED = 64;
/** The longest delay setTimeout accepts (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A peer that does not close after our FIN is cut off after this long. */
const END_GRACE_MS = 2000;

export class Connection implements ResponseSink, QueuedReply {
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
  /** Set by a self-KILL: the command loop ends after sending the current reply. */
  closeAfterReply = false;

  private readonly decoder: PacketDecoder;
  private readonly queue: Array<Packet | PacketTooLarge> = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private paused = false;
  private draining = false;
  /** wait_timeout: one lazily re-armed timer for the whole connection (see waitIdle). */
  private idleTimer: NodeJS.Timeout | null = null;
  /** A finished reply waits in the writer for the reply batch (flushSoon). */
  private replyQueued = false;
  /** Set while the socket has not taken a batched reply: the next command waits for 'drain'. */
  private drainWait: Promise<void> | undefined;
  private idleTimerAt = 0;
  private idleDeadline = 0;

  /** Replaced by its TLS wrapper after an SSLRequest (startTls). */
  socket: Socket;

  constructor(
    socket: Socket,
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
    // With TLS configured the plain socket may be handed to a TLS wrapper (startTls), which
    // reads from it through 'data'; without, reads go through the shared buffer (socket-input.ts).
    const adopted = deps.tls === undefined ? readThroughSharedBuffer(socket, this.onData) : undefined;
    this.socket = adopted ?? socket;
    this.socket.setNoDelay(true);
    this.listen(this.socket, adopted === undefined);
  }

  private readonly onData = (chunk: Buffer): void => this.decoder.push(chunk);

  private listen(socket: Socket, dataEvents = true): void {
    if (dataEvents) socket.on('data', this.onData);
    socket.on('error', (err) => this.log.debug({ err: err.message }, 'socket error'));
    socket.on('close', () => this.onEnd());
    socket.on('end', () => this.onEnd());
  }

  /** TLS (tls.ts): decode no further than the next packet, which may be an SSLRequest. */
  holdAfterNextPacket(): void {
    this.decoder.holdAfterNext();
  }

  /** TLS: the held packet was not an SSLRequest; decode what arrived behind it. */
  resumeDecoding(): void {
    this.decoder.resume();
  }

  /**
   * TLS: stops reading the plain socket, gives it back the bytes read behind the held SSLRequest
   * (the start of the TLS handshake) and continues on the socket `wrap` builds on top of it.
   */
  startTls(wrap: (plain: Socket) => Socket): void {
    const plain = this.socket;
    plain.off('data', this.onData);
    plain.pause();
    const rest = this.decoder.release();
    if (rest.length > 0) plain.unshift(rest);
    this.socket = wrap(plain);
    this.listen(this.socket);
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
    this.clearIdleTimer();
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * The next complete packet, or null once the peer is gone or the server drains. Sets the
   * sequence id of the response to the packet's + 1. Throws PacketTooLarge.
   */
  async next(): Promise<Packet | null> {
    while (this.queue.length === 0 || this.draining) {
      if (this.ended || this.draining) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return this.shift();
  }

  /**
   * next() without waiting: the queued packet, null once the peer is gone or the server drains,
   * undefined when nothing has arrived yet (the command loop then waits with waitForCommand).
   */
  takeCommand(): Packet | null | undefined {
    if (this.draining) return null;
    if (this.queue.length > 0) return this.shift();
    return this.ended ? null : undefined;
  }

  private shift(): Packet {
    const item = this.queue.shift() as Packet | PacketTooLarge;
    if (this.paused && this.queue.length < MAX_QUEUED / 2) {
      this.paused = false;
      this.socket.resume();
    }
    if (item instanceof PacketTooLarge) throw item;
    this.writer.seq = (item.seq + 1) & 0xff;
    return item;
  }

  /**
   * Queues the finished response in the writer for the reply batch (reply-batch.ts) instead of
   * writing it now, unless the batch says to write at once; the command loop calls
   * beforeCommand() before it runs the next command.
   */
  flushSoon(): void {
    if (this.writer.pos === 0 || this.replyQueued) return;
    this.replyQueued = true;
    if (!queueReply(this)) this.sendQueued();
  }

  /** The reply batch: writes the queued reply (nothing if a flush() has sent it since). */
  sendQueued(): void {
    if (!this.replyQueued) return;
    const sending = this.flush();
    if (sending !== undefined) {
      this.drainWait = sending.then(() => {
        this.drainWait = undefined;
      });
    }
  }

  /**
   * Before the next command: a reply still queued goes out first (the client sent the command
   * without waiting for it), and the command waits until the socket took the earlier replies.
   */
  beforeCommand(): Promise<void> | undefined {
    this.sendQueued();
    return this.drainWait;
  }

  /**
   * Sends the buffered response with one socket write. Returns undefined when the socket took it
   * (no promise, no microtask: the command loop's common case), else a promise of 'drain'.
   */
  flush(): Promise<void> | undefined {
    this.replyQueued = false;
    if (this.writer.pos === 0) return undefined;
    this.flushCount++;
    if (this.socket.destroyed || this.socket.writableEnded) {
      this.writer.settle(true);
      return undefined;
    }
    const taken = this.socket.write(this.writer.pending());
    // Nothing left queued: the kernel copied the bytes during write(), the buffer is free again.
    this.writer.settle(this.socket.writableLength === 0);
    if (taken) return undefined;
    return new Promise<void>((resolve) => {
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

  /**
   * For the command loop when takeCommand() had nothing: resolves on the next packet, the end of
   * the connection, a drain, or at `deadline` (wait_timeout; the loop then checks the clock).
   * Timers are armed in steps of at most MAX_TIMER_MS (setTimeout's limit). One promise per wait.
   */
  waitForCommand(deadline: number, now: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.armIdleTimer(deadline, now);
    });
  }

  /**
   * Makes sure a timer wakes the waiting command loop by `deadline`. Instead of one
   * setTimeout/clearTimeout pair per command, the timer stays armed across commands: when it
   * fires early (the deadline moved on) it only re-arms for the rest.
   */
  private armIdleTimer(deadline: number, now: number): void {
    this.idleDeadline = deadline;
    if (this.idleTimer !== null && this.idleTimerAt <= deadline) return;
    this.clearIdleTimer();
    const delay = Math.min(deadline - now, MAX_TIMER_MS);
    this.idleTimerAt = now + delay;
    this.idleTimer = setTimeout(this.onIdleTimer, delay);
    this.idleTimer.unref();
  }

  private readonly onIdleTimer = (): void => {
    this.idleTimer = null;
    if (this.wake === null || this.ended) return; // busy: the next wait arms a new timer
    const now = Date.now();
    if (this.idleDeadline - now > 0) this.armIdleTimer(this.idleDeadline, now);
    else this.signal();
  };

  private clearIdleTimer(): void {
    if (this.idleTimer === null) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** KILL CONNECTION: close after the reply being built (a self-kill) or at once. */
  disconnect(afterReply: boolean): void {
    if (afterReply) this.closeAfterReply = true;
    else this.destroy();
  }

  /** Server shutdown: no further commands; next() answers null (at once when idle). */
  drain(): void {
    this.draining = true;
    this.clearIdleTimer();
    this.signal();
  }

  destroy(): void {
    // A reply already finished still goes out if the socket takes it at once.
    this.sendQueued();
    this.ended = true;
    this.clearIdleTimer();
    this.socket.destroy();
    this.signal();
  }
}

function normalizeHost(addr: string | undefined): string {
  if (addr === undefined) return 'unknown';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}
