/**
 * Progress of `shale import` on stderr: a cli-progress bar on a terminal (bytes done / total,
 * statements per second, ETA), a plain line every few seconds otherwise (logs and CI stay short).
 */
import cliProgress from 'cli-progress';
import { formatBytes, formatCount, formatDuration, perSecond } from './import-format.js';

/** Where progress goes (process.stderr, or a stream in tests). */
export type ProgressStream = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** The counters the runner updates after every statement. */
export interface ProgressState {
  /** Bytes of the file behind the last executed statement. */
  bytes: number;
  total: number;
  statements: number;
  errors: number;
}

export interface ImportProgress {
  /** The runner changed the state. */
  update(): void;
  /** Prints a line (an error while continuing) without garbling the bar. */
  log(line: string): void;
  /** Draws the final state and stops (idempotent). */
  stop(): void;
}

const PLAIN_INTERVAL_MS = 5000;

/** The plain progress line. */
export function progressLine(state: ProgressState, elapsedMs: number): string {
  const pct = state.total > 0 ? Math.floor((state.bytes * 100) / state.total) : 100;
  const eta = state.bytes > 0 && state.total > state.bytes ? ((state.total - state.bytes) * elapsedMs) / state.bytes : 0;
  return (
    `import: ${formatBytes(state.bytes)} / ${formatBytes(state.total)} (${pct}%), ` +
    `${formatCount(state.statements)} statements, ${formatCount(perSecond(state.statements, elapsedMs))} statements/s` +
    (state.errors > 0 ? `, ${formatCount(state.errors)} errors` : '') +
    (state.bytes < state.total ? `, ETA ${formatDuration(eta)}` : '')
  );
}

/** Starts showing progress of `state` on `stream` (nothing when `enabled` is false). */
export function startProgress(state: ProgressState, stream: ProgressStream, enabled: boolean, now = Date.now): ImportProgress {
  const log = (line: string): void => void stream.write(line + '\n');
  if (!enabled) return { update: () => undefined, log, stop: () => undefined };
  const startedAt = now();
  if (stream.isTTY !== true) {
    const timer = setInterval(() => stream.write(progressLine(state, now() - startedAt) + '\n'), PLAIN_INTERVAL_MS);
    timer.unref();
    return { update: () => undefined, log, stop: () => clearInterval(timer) };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: 'import |{bar}| {percentage}% | {done} / {size} | {statements} statements, {rate} statements/s{errors} | ETA {eta_formatted}',
      stream,
      hideCursor: true,
      // Redraw even when unchanged: log() may have cleared the bar's line.
      forceRedraw: true,
      barsize: 30,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = (): Record<string, string> => ({
    done: formatBytes(state.bytes),
    size: formatBytes(state.total),
    statements: formatCount(state.statements),
    rate: formatCount(perSecond(state.statements, now() - startedAt)),
    errors: state.errors > 0 ? `, ${formatCount(state.errors)} errors` : '',
  });
  bar.start(Math.max(1, state.total), 0, payload());
  let stopped = false;
  return {
    update(): void {
      if (!stopped) bar.update(state.bytes, payload());
    },
    log(line: string): void {
      // Clear the bar's line, print, and let the next update draw the bar below.
      stream.write(stopped ? line + '\n' : `\r\x1b[K${line}\n`);
      if (!stopped) bar.render();
    },
    stop(): void {
      if (stopped) return;
      stopped = true;
      bar.update(state.bytes, payload());
      bar.stop();
    },
  };
}
