/**
 * `GET /health`: whether this node can serve. It can while it is not shutting down and its
 * store answers: a probe takes a snapshot and releases it (on etcd a linearizable read, so it
 * needs a quorum). A check waits up to `waitMs` for the probe; a probe still pending then counts
 * as healthy if the previous one was, until it has been pending for `stallMs` (a short etcd
 * leader election delays statements but fails none, so it should not take the node out of a
 * load balancer). Concurrent checks share one probe.
 */
import type { Store } from '../kv/index.js';

export interface HealthReport {
  readonly ok: boolean;
  /** `ok`, `unavailable` (the store failed or stalled) or `shutting-down`. */
  readonly status: 'ok' | 'unavailable' | 'shutting-down';
  readonly error?: string;
}

export const HEALTH_OK: HealthReport = { ok: true, status: 'ok' };
export const SHUTTING_DOWN: HealthReport = { ok: false, status: 'shutting-down' };

export interface HealthTimings {
  /** How long one check waits for the probe (below HAProxy's `timeout check 2s`). */
  readonly waitMs: number;
  /** A probe pending this long means the store is unavailable. */
  readonly stallMs: number;
}

export const DEFAULT_HEALTH_TIMINGS: HealthTimings = { waitMs: 1_000, stallMs: 5_000 };

interface Probe {
  readonly startedAt: number;
  readonly result: Promise<HealthReport>;
}

export class StoreHealth {
  private stopping = false;
  private probe: Probe | undefined;
  private last: HealthReport | undefined;

  constructor(
    private readonly store: Store,
    private readonly timings: HealthTimings = DEFAULT_HEALTH_TIMINGS,
  ) {}

  /** From now on every check answers `shutting-down`. */
  markStopping(): void {
    this.stopping = true;
  }

  async check(): Promise<HealthReport> {
    if (this.stopping) return SHUTTING_DOWN;
    const probe = this.probe ?? this.startProbe();
    const report = await settleWithin(probe.result, this.timings.waitMs);
    if (this.stopping) return SHUTTING_DOWN;
    if (report !== undefined) return report;
    const pending = Date.now() - probe.startedAt;
    if (pending >= this.timings.stallMs || this.last === undefined || !this.last.ok) {
      return { ok: false, status: 'unavailable', error: `the store has not answered for ${pending} ms` };
    }
    return this.last;
  }

  private startProbe(): Probe {
    const probe: Probe = { startedAt: Date.now(), result: this.takeSnapshot() };
    this.probe = probe;
    void probe.result.then((r) => {
      this.last = r;
      if (this.probe === probe) this.probe = undefined;
    });
    return probe;
  }

  private async takeSnapshot(): Promise<HealthReport> {
    try {
      const snap = await this.store.snapshot();
      snap.release();
      return HEALTH_OK;
    } catch (err) {
      return { ok: false, status: 'unavailable', error: err instanceof Error ? err.message : String(err) };
    }
  }
}

/** The value of `p` if it settles within `ms`, else undefined. */
async function settleWithin<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
