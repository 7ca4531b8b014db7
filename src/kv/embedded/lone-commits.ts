/**
 * When a commit may skip lmdb-js's write queue. A queued commit crosses threads six times (the
 * event loop hands it to lmdb-js's write thread, which calls back for the checks and puts, is
 * resumed, reports the commit, and the log's fdatasync goes to libuv's pool and back); shared by
 * the commits of a busy process that is cheap, but a commit with nobody to share its batch with
 * pays all of it. Such a lone commit runs synchronously instead (EmbeddedStore.commitNow): one
 * write transaction and the log's fdatasync on the event loop (ARCHITECTURE.md, "A commit with
 * no thread hand-off": +11-89 % single-row write throughput for one client, none lost at 8).
 *
 * A commit counts as lone when it is the first of its event-loop turn and the SOLO_TURNS turns
 * before held one commit each (a turn with two ends the run, so concurrent clients keep the
 * queue, whose batches overlap their statements with the sync), and only while no lmdb-js
 * asynchronous transaction of this process is in flight: its write thread holds LMDB's write
 * lock while it waits for this event loop to run the batch's callbacks, so a synchronous
 * transaction started here behind that lock would wait for itself. `queued` counts those.
 */
const SOLO_TURNS = 16;

export class LoneCommits {
  /** Commits of the current turn; the turn's end is queued while it is above 0. */
  private turnCommits = 0;
  private soloTurns = 0;
  private inFlight = 0;

  /** Called once per commit that writes: true if it should run synchronously. */
  take(): boolean {
    if (this.turnCommits++ === 0) setImmediate(this.endTurn);
    return this.turnCommits === 1 && this.soloTurns >= SOLO_TURNS && this.inFlight === 0;
  }

  /** Runs one lmdb-js asynchronous write (a batch and its retries), counted until it settles. */
  async queued<T>(write: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await write();
    } finally {
      this.inFlight--;
    }
  }

  private readonly endTurn = (): void => {
    this.soloTurns = this.turnCommits === 1 ? this.soloTurns + 1 : 0;
    this.turnCommits = 0;
  };
}
