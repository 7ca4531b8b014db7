/**
 * Connections to the members of one etcd cluster: one grpc-js channel per endpoint, requests
 * sent to a preferred member (the leader when known: writes to followers cost a forward) and
 * moved to the next member when it fails. Idempotent requests retry across members until a
 * deadline; commits are resent only when they provably never left this process.
 */
import { Client, connectivityState, credentials, type ServiceError } from '@grpc/grpc-js';
import { methodCodec, type MethodCodec } from './proto.js';
import { notSent, rejectedBeforeApply, transient } from './rpc-errors.js';
import { SERVICE_OF, type UnaryMethod, type UnaryMethods } from './rpc-types.js';

/** How a request may be repeated after a failure. */
export type RetryMode = 'idempotent' | 'once';

export interface CallOptions {
  readonly retry: RetryMode;
  /** Per-attempt deadline in ms (default 10 s). */
  readonly timeoutMs?: number;
}

const RETRY_BUDGET_MS = 20_000;
const CHANNEL_OPTIONS = {
  'grpc.max_receive_message_length': 256 * 1024 * 1024,
  'grpc.max_send_message_length': 256 * 1024 * 1024,
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 2_000,
};

export class EtcdConnection {
  private readonly clients: Client[];
  private readonly codecs = new Map<UnaryMethod, MethodCodec>();
  private current = 0;

  constructor(readonly endpoints: readonly string[]) {
    this.clients = endpoints.map((ep) => new Client(ep, credentials.createInsecure(), CHANNEL_OPTIONS));
  }

  /** The client of the preferred member (also used for streams). */
  client(): Client {
    return this.clients[this.current] as Client;
  }

  currentEndpoint(): string {
    return this.endpoints[this.current] as string;
  }

  /** Makes the member serving `memberIndex` the preferred one. */
  prefer(memberIndex: number): void {
    if (memberIndex >= 0 && memberIndex < this.clients.length) this.current = memberIndex;
  }

  /** Calls `method` on one member given by index (no failover): used to probe each member. */
  callMember<M extends UnaryMethod>(index: number, method: M, req: UnaryMethods[M][0], timeoutMs = 2_000): Promise<UnaryMethods[M][1]> {
    const client = this.clients[index];
    if (client === undefined) return Promise.reject(new Error(`no etcd member #${index}`));
    return this.once(client, method, req, timeoutMs);
  }

  /** Calls `method` with failover (see RetryMode). */
  async call<M extends UnaryMethod>(method: M, req: UnaryMethods[M][0], opts: CallOptions): Promise<UnaryMethods[M][1]> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const index = this.current;
      const client = this.clients[index] as Client;
      if (opts.retry === 'once' && !this.ready(client) && this.clients.length > 1) this.rotate(index);
      try {
        return await this.once(this.clients[this.current] as Client, method, req, opts.timeoutMs ?? 10_000);
      } catch (err) {
        const retry = opts.retry === 'idempotent' ? transient(err) : notSent(err) || rejectedBeforeApply(err);
        if (!retry || Date.now() - started > RETRY_BUDGET_MS) throw err;
        this.rotate(index);
        await sleep(Math.min(500, 20 * 2 ** Math.min(attempt, 5)));
      }
    }
  }

  close(): void {
    for (const c of this.clients) c.close();
  }

  private ready(client: Client): boolean {
    const state = client.getChannel().getConnectivityState(true);
    return state === connectivityState.READY || state === connectivityState.IDLE || state === connectivityState.CONNECTING;
  }

  /** Moves off the member at `failed` (unless another caller already did). */
  private rotate(failed: number): void {
    if (this.current === failed) this.current = (failed + 1) % this.clients.length;
  }

  private once<M extends UnaryMethod>(client: Client, method: M, req: UnaryMethods[M][0], timeoutMs: number): Promise<UnaryMethods[M][1]> {
    const codec = this.codec(method);
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        codec.path,
        codec.serialize,
        codec.deserialize,
        req,
        { deadline: Date.now() + timeoutMs },
        (err: ServiceError | null, value?: unknown) => {
          if (err !== null) reject(err);
          // The boundary: protobufjs decoded `value` from etcd's wire bytes as this method's
          // response message, so it has that message's shape (rpc-types.ts mirrors the proto).
          else resolve(value as UnaryMethods[M][1]);
        },
      );
    });
  }

  private codec(method: UnaryMethod): MethodCodec {
    let c = this.codecs.get(method);
    if (c === undefined) {
      c = methodCodec(SERVICE_OF[method], method);
      this.codecs.set(method, c);
    }
    return c;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
