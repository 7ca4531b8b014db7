/**
 * Cooperative interruption of one statement (KILL QUERY, KILL CONNECTION, max_execution_time).
 *
 * Node runs every connection on one thread and the embedded store reads synchronously, so a
 * long statement would never let a KILL arriving on another socket be read. Executors therefore
 * call `pause()` between batches: it throws once the statement was interrupted or ran past its
 * deadline, and every YIELD_EVERY_MS it returns a promise that gives the event loop one turn
 * (other connections' packets, timers). Tight synchronous loops call `check()` (no yield).
 */
import { SqlError } from '../../errors/index.js';

export type InterruptReason = 'killed' | 'timeout';

/** How long a statement may hold the event loop before pause() yields it. */
export const YIELD_EVERY_MS = 10;

export class Cancellation {
  private reason: InterruptReason | null = null;
  private readonly deadline: number;
  private lastYield: number;

  /** `timeoutMs` 0 = no deadline. `now` is injectable for tests. */
  constructor(
    timeoutMs = 0,
    private readonly now: () => number = () => performance.now(),
  ) {
    const start = now();
    this.deadline = timeoutMs > 0 ? start + timeoutMs : Infinity;
    this.lastYield = start;
  }

  /** Why the statement was interrupted, or null while it may go on. */
  get interrupted(): InterruptReason | null {
    return this.reason;
  }

  /** Asks the statement to stop at its next check (the first reason wins). */
  interrupt(reason: InterruptReason): void {
    this.reason ??= reason;
  }

  /** Throws 1317 (killed) or 3024 (past the deadline); cheap enough for inner loops. */
  check(): void {
    if (this.reason === null && this.deadline !== Infinity && this.now() >= this.deadline) this.reason = 'timeout';
    if (this.reason !== null) throw interruptError(this.reason);
  }

  /**
   * check(), then null, or (when the statement has held the event loop for YIELD_EVERY_MS) a
   * promise resolved after one event-loop turn that checks again.
   */
  pause(): Promise<void> | null {
    this.check();
    const t = this.now();
    if (t - this.lastYield < YIELD_EVERY_MS) return null;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.lastYield = this.now();
      this.check();
    });
  }
}

/** A token nobody interrupts (internal statements, tests). */
export function uncancellable(): Cancellation {
  return new Cancellation(0);
}

export function interruptError(reason: InterruptReason): SqlError {
  return reason === 'killed' ? SqlError.of('ER_QUERY_INTERRUPTED') : SqlError.of('ER_QUERY_TIMEOUT');
}
