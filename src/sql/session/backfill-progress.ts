/**
 * CREATE INDEX progress: the PROCESSLIST State of the session running it (e.g. "backfilling
 * index k: 40000/100000 rows (40%), ETA 3 s") and a log line at most every LOG_EVERY_MS.
 */
import type { Logger } from 'pino';
import type { BackfillProgress, BackfillStatus } from '../../catalog/index.js';

export const LOG_EVERY_MS = 2000;

/** The State text; the ETA extrapolates the rate so far (none before the first batch or at the end). */
export function formatBackfillProgress(s: BackfillStatus, elapsedMs: number): string {
  const total = Math.max(s.rowsTotal, s.rowsDone);
  const pct = total === 0 ? 100 : Math.floor((s.rowsDone * 100) / total);
  const base = `backfilling index ${s.index}: ${s.rowsDone}/${total} rows (${pct}%)`;
  if (s.rowsDone === 0 || s.rowsDone >= total) return base;
  const etaSeconds = Math.ceil((elapsedMs * (total - s.rowsDone)) / s.rowsDone / 1000);
  return `${base}, ETA ${etaSeconds} s`;
}

export interface ProgressSink {
  readonly logger: Logger;
  readonly connectionId: number;
  /** Shows the text as the session's State (null = back to the default). */
  setState(text: string | null): void;
  /** Throws when the statement was interrupted (KILL QUERY): the backfill stops and the index is dropped. */
  check(): void;
}

export function backfillReporter(sink: ProgressSink, now: () => number = Date.now): BackfillProgress {
  const started = now();
  let lastLog = started;
  return (status) => {
    sink.check();
    const t = now();
    const text = formatBackfillProgress(status, t - started);
    sink.setState(text);
    if (t - lastLog < LOG_EVERY_MS) return;
    lastLog = t;
    sink.logger.info(
      { event: 'index-backfill', conn: sink.connectionId, table: status.table, index: status.index, rowsDone: status.rowsDone, rowsTotal: status.rowsTotal },
      text,
    );
  };
}
