/**
 * Replies sent together once the event loop has run every command that was ready.
 *
 * A reply's socket write wakes the client's thread, and on a busy machine the woken thread
 * often preempts the writer at once (loopback TCP delivers inside the sender's system call):
 * with replies written as each command finished, the event loop lost the CPU in the middle of
 * the commands that arrived together and ran the rest only after the clients' threads. So the
 * command loop queues a finished reply here (Connection.flushSoon), and one setImmediate, which
 * runs after libuv's poll phase has delivered every readable socket and finished write, writes
 * them all, one write per connection as before. A reply waits at most for the other commands
 * that were ready at the same time.
 *
 * Measured (2026-12-04, oltp_point_select, `--workers 2`, 8 threads, alternating 10–12 s runs,
 * TPS immediate / batched): 33.7k / 44.3k, 33.5k / 38.5k, 32.3k / 34.5k, 32.5k / 34.6k,
 * 33.8k / 29.6k, 33.1k / 33.5k, 32.1k / 36.2k, 30.8k / 37.2k (ARCHITECTURE.md).
 */

/** What the batch asks of a connection: write the reply it queued (Connection.sendQueued). */
export interface QueuedReply {
  sendQueued(): void;
}

let waiting: QueuedReply[] = [];

function sendAll(): void {
  const batch = waiting;
  waiting = [];
  for (const reply of batch) reply.sendQueued();
}

/** Queues `reply` for the next setImmediate; a connection adds itself once per reply. */
export function queueReply(reply: QueuedReply): void {
  waiting.push(reply);
  if (waiting.length === 1) setImmediate(sendAll);
}
