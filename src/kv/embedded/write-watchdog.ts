/**
 * Notices writes that never finish. After lmdb-js's free-list fault (storage-errors.ts) its write
 * thread was seen to stall for good under heavy concurrent writes with `--workers 2`: the
 * commit's promise never settles, and since LMDB's write lock is held, every other writer on the
 * directory stalls too. Nothing inside the process can unblock it, so the store reports the
 * oldest unfinished write once it is older than `stuckMs` (once per process); the server then
 * exits so that its supervisor (the `--workers` primary, systemd, Docker) starts it afresh.
 */
export class WriteWatchdog {
  /** Start time (ms) of each unfinished write by id; Map order = oldest first. */
  private readonly started = new Map<number, number>();
  private nextId = 0;
  private fired = false;
  private readonly timer: NodeJS.Timeout | undefined;

  /** `stuckMs` 0 disables the watchdog. */
  constructor(
    private readonly stuckMs: number,
    private readonly onStuck: (ageMs: number) => void,
  ) {
    if (stuckMs > 0) {
      this.timer = setInterval(() => this.check(Date.now()), Math.min(5000, Math.max(10, Math.floor(stuckMs / 2))));
      this.timer.unref();
    }
  }

  /** A write starts; hand the id to end(). */
  begin(): number {
    const id = ++this.nextId;
    this.started.set(id, Date.now());
    return id;
  }

  end(id: number): void {
    this.started.delete(id);
  }

  /** Reports (once) when the oldest unfinished write started `stuckMs` or more before `now`. */
  check(now: number): void {
    if (this.fired || this.stuckMs <= 0) return;
    const oldest = this.started.values().next();
    if (oldest.done === true) return;
    const age = now - oldest.value;
    if (age < this.stuckMs) return;
    this.fired = true;
    this.onStuck(age);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}
