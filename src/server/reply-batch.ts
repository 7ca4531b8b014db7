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
 * that were ready at the same time. While batches hold a single reply (one active client),
 * replies are written at once instead, and a batch is tried again every SAMPLE_EVERY replies.
 *
 * Measured (2026-12-04, oltp_point_select, `--workers 2`, 8 threads, alternating 10–12 s runs,
 * TPS immediate / batched): 33.7k / 44.3k, 33.5k / 38.5k, 32.3k / 34.5k, 32.5k / 34.6k,
 * 33.8k / 29.6k, 33.1k / 33.5k, 32.1k / 36.2k, 30.8k / 37.2k (ARCHITECTURE.md).
 */

/** What the batch asks of a connection: write the reply it queued (Connection.sendQueued). */
export interface QueuedReply {
  sendQueued(): void;
}

/**
 * With one busy client there is nothing to batch with, and the batch's turn of the event loop
 * only delays the reply (point selects over one connection lost 5–10 %). So after this many
 * batches in a row held one reply each, replies go out at once ("direct")...
 */
const SINGLES_TO_DIRECT = 16;
/** ...except that every this-many-th reply opens a batch again, to notice when load returns. */
const SAMPLE_EVERY = 32;

let waiting: QueuedReply[] = [];
let direct = false;
let singles = 0;
let sinceSample = 0;

function sendAll(): void {
  const batch = waiting;
  waiting = [];
  if (batch.length > 1) {
    direct = false;
    singles = 0;
  } else if (++singles >= SINGLES_TO_DIRECT) {
    direct = true;
  }
  for (const reply of batch) reply.sendQueued();
}

/**
 * Queues `reply` for the next setImmediate and returns true, or returns false when replies go
 * out at once (the caller writes it now). A connection asks once per reply.
 */
export function queueReply(reply: QueuedReply): boolean {
  if (direct && waiting.length === 0) {
    if (++sinceSample < SAMPLE_EVERY) return false;
    sinceSample = 0;
  }
  waiting.push(reply);
  if (waiting.length === 1) setImmediate(sendAll);
  return true;
}
