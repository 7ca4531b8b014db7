/**
 * Progress while the harness runs: on a terminal a cli-progress bar with the server, the step
 * (prepare, workload and threads) and the planned time left; otherwise one line per step on stderr.
 * Time is planned time: each run counts its --time, a prepare counts an estimate.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Starts a step worth `plannedSeconds`; ticks once a second until the next step. */
  step(server: string, what: string, plannedSeconds: number): void;
  /** Prints a line above the bar (results as they arrive). */
  log(line: string): void;
  stop(): void;
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}

export function createProgress(totalSeconds: number, tty = process.stderr.isTTY === true): Progress {
  let done = 0;
  let current = 0;
  let startedAt = Date.now();
  const multi = tty
    ? new cliProgress.MultiBar(
        { format: '{bar} {percentage}% | {server} | {what} | ~{left} left', stream: process.stderr, hideCursor: true, barsize: 30 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const bar = multi?.create(Math.max(1, Math.round(totalSeconds)), 0, { server: '', what: 'starting', left: clock(totalSeconds) });
  let payload = { server: '', what: '' };
  const timer = setInterval(() => {
    const inStep = Math.min(current, (Date.now() - startedAt) / 1000);
    bar?.update(Math.round(done + inStep), { ...payload, left: clock(totalSeconds - done - inStep) });
  }, 1000);
  timer.unref();
  return {
    step(server, what, plannedSeconds) {
      done += current;
      current = plannedSeconds;
      startedAt = Date.now();
      payload = { server, what };
      if (bar !== undefined) bar.update(Math.round(done), { ...payload, left: clock(totalSeconds - done) });
      else process.stderr.write(`[bench] ${server}: ${what} (~${clock(totalSeconds - done)} left)\n`);
    },
    log(line) {
      if (multi !== undefined) multi.log(`${line}\n`);
      else process.stderr.write(`[bench] ${line}\n`);
    },
    stop() {
      clearInterval(timer);
      if (bar !== undefined) {
        bar.update(Math.round(totalSeconds), { ...payload, what: 'done', left: clock(0) });
        multi?.stop();
      }
    },
  };
}
