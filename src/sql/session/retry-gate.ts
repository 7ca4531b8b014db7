/**
 * Keeps autocommit retries from starving on a hot row. Optimistic statements that keep losing
 * (first committer wins) could lose every race against fresh statements of other sessions; a
 * statement that failed RETRY_PRIORITY_AFTER times takes the gate, and while the gate is held
 * new autocommit statements of this engine wait before they begin. Priority holders queue
 * behind one another. The common path costs one property check.
 */
export const RETRY_PRIORITY_AFTER = 2;

export class RetryGate {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  /** True while some statement retries with priority. */
  get held(): boolean {
    return this.holders > 0;
  }

  /** Resolves once no priority retry is running (new autocommit statements call this). */
  async waitIdle(): Promise<void> {
    while (this.holders > 0) await this.tail;
  }

  /** Takes the gate; call the returned function to release it. */
  async acquire(): Promise<() => void> {
    this.holders++;
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    const mine = this.tail;
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      release();
      void mine;
    };
  }
}
