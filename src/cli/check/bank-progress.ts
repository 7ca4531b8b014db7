/**
 * A progress line on stderr while the bank clients run: every 2 s on a terminal, every 5 s
 * otherwise (logs stay short).
 */
import type { Ledger } from './bank-ledger.js';

export interface ProgressSink {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** The progress line for the ledger at `elapsedMs`. */
export function progressLine(ledger: Ledger, elapsedMs: number): string {
  const s = (elapsedMs / 1000).toFixed(0).padStart(4);
  const errors = ledger.errors.describe();
  const connects = ledger.connectErrors.total();
  return (
    `[${s}s] ${ledger.acknowledged.size} acknowledged, ${ledger.rejected.size} rejected, ` +
    `${ledger.skipped.size} skipped, ${ledger.unknown.size} unknown; errors: ${errors}` +
    (connects > 0 ? `; connect failures: ${ledger.connectErrors.describe()}` : '')
  );
}

/** Starts printing; returns the function that stops it. */
export function startProgress(ledger: Ledger, sink: ProgressSink, startedAt: number): () => void {
  const timer = setInterval(
    () => {
      sink.write(progressLine(ledger, Date.now() - startedAt) + '\n');
    },
    sink.isTTY === true ? 2000 : 5000,
  );
  return () => clearInterval(timer);
}
