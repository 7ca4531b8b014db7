/**
 * Short runs of the crash harness (scripts/crash-harness.ts; long runs use the script): the server
 * process is SIGKILLed at random moments under concurrent transactions, part-way through a
 * CREATE INDEX backfill too, and restarted on the same data directory (the second run as after a
 * reboot: the embedded store restores its checkpoint and replays its redo log). After every
 * restart each acknowledged commit is present, no transaction is partially visible, counters
 * equal the committed increments, ADMIN CHECK TABLE passes on every table, and the interrupted
 * index is either invisible or complete, with CREATE INDEX working again.
 */
import { describe, expect, it } from 'vitest';
import { runCrashHarness, summary, type HarnessOptions, type HarnessReport } from '../../scripts/crash-harness.js';

/** A short harness run on a fresh embedded store; fails the test on any violation. */
async function shortRun(cycles: number, ddlEvery: number, reboot: boolean): Promise<{ report: HarnessReport; text: string }> {
  const lines: string[] = [];
  const opts: HarnessOptions = {
    cycles,
    clients: 4,
    store: 'lmdb',
    bigRows: 15_000,
    runMs: [300, 1200],
    ddlEvery,
    seed: Math.floor(Math.random() * 2 ** 31),
    log: (line) => lines.push(line),
    reboot,
  };
  const report = await runCrashHarness(opts);
  const text = [...lines, summary(report, opts)].join('\n');
  console.log(text);
  expect(report.violations, text).toBe(0);
  return { report, text };
}

describe('crash harness (short run)', () => {
  it('keeps every acknowledged commit and every table consistent across kill -9 and restart', async () => {
    const { report, text } = await shortRun(6, 3, false);
    expect(report.cycles).toHaveLength(6);
    expect(report.cycles.filter((c) => c.index !== undefined)).toHaveLength(2);
    expect(report.recoveries, text).toBe(0);
    expect(report.acked, text).toBeGreaterThan(50);
  }, 100_000);

  it('the same across simulated reboots: each restart restores the last checkpoint and replays the redo log', async () => {
    const { report, text } = await shortRun(4, 2, true);
    expect(report.recoveries, text).toBe(4);
    expect(report.acked, text).toBeGreaterThan(30);
  }, 100_000);
});
