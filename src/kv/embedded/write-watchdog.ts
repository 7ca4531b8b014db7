/**
 * Notices writes that never finish. After lmdb-js's free-list fault (storage-errors.ts) its write
 * thread was seen to stall for good under heavy concurrent writes with `--workers 2`: the
 * commit's promise never settles, and since LMDB's write lock is held, every other writer on the
 * directory stalls too. Nothing inside the process can unblock it, so the store reports the
 * oldest unfinished write once it is older than `stuckMs` (once per process); the server then
 * exits so that its supervisor (the `--workers` primary, systemd, Docker) starts it afresh.
 *
 * After such a fault the watchdog is "suspicious" until a write batch succeeds again: a write
 * unfinished `suspectMs` after the fault (or after its own start, whichever is later) is reported
 * already, since a healthy batch takes milliseconds and the stall otherwise costs a full
 * `stuckMs` of no writes at all. Ordinary long writes (a big commit on a slow disk) keep the
 * full `stuckMs`.
 */
export class WriteWatchdog {
  /** Start time (ms) of each unfinished write by id; Map order = oldest first. */
  private readonly started = new Map<number, number>();
  private nextId = 0;
  private fired = false;
  /** When the last fault was seen, while no write batch has succeeded since; undefined = healthy. */
  private suspectSince: number | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  /** `stuckMs` 0 disables the watchdog. */
  constructor(
    private readonly stuckMs: number,
    private readonly onStuck: (ageMs: number) => void,
    private readonly suspectMs = Math.min(stuckMs, 5000),
  ) {
    if (stuckMs > 0) {
      this.timer = setInterval(() => this.check(Date.now()), Math.min(1000, Math.max(10, Math.floor(Math.min(stuckMs, suspectMs) / 2))));
      this.timer.unref();
    }
  }

  /** A write starts; hand the id to end(). */
  begin(now = Date.now()): number {
    const id = ++this.nextId;
    this.started.set(id, now);
    return id;
  }

  end(id: number): void {
    this.started.delete(id);
  }

  /** A write batch failed with a fault that may leave the write thread stalled. */
  suspect(now = Date.now()): void {
    this.suspectSince = now;
  }

  /** A write batch succeeded: back to the full limit. */
  healthy(): void {
    this.suspectSince = undefined;
  }

  /** Reports (once) when the oldest unfinished write is over its limit at `now` (see above). */
  check(now: number): void {
    if (this.fired || this.stuckMs <= 0) return;
    const oldest = this.started.values().next();
    if (oldest.done === true) return;
    const age = now - oldest.value;
    const since = this.suspectSince;
    const overdue = age >= this.stuckMs || (since !== undefined && now - Math.max(since, oldest.value) >= this.suspectMs);
    if (!overdue) return;
    this.fired = true;
    this.onStuck(age);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}
