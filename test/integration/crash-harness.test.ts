/**
 * Short run of the crash harness (scripts/crash-harness.ts; long runs use the script): the server
 * process is SIGKILLed at random moments under concurrent transactions, twice part-way through a
 * CREATE INDEX backfill, and restarted on the same data directory. After every restart each
 * acknowledged commit is present, no transaction is partially visible, counters equal the
 * committed increments, ADMIN CHECK TABLE passes on every table, and the interrupted index is
 * either invisible or complete, with CREATE INDEX working again.
 */
import { describe, expect, it } from 'vitest';
import { runCrashHarness, summary, type HarnessOptions } from '../../scripts/crash-harness.js';

describe('crash harness (short run)', () => {
  it('keeps every acknowledged commit and every table consistent across kill -9 and restart', async () => {
    const lines: string[] = [];
    const opts: HarnessOptions = {
      cycles: 6,
      clients: 4,
      store: 'lmdb',
      bigRows: 15_000,
      runMs: [300, 1200],
      ddlEvery: 3,
      seed: Math.floor(Math.random() * 2 ** 31),
      log: (line) => lines.push(line),
    };
    const report = await runCrashHarness(opts);
    const text = [...lines, summary(report, opts)].join('\n');
    console.log(text);
    expect(report.violations, text).toBe(0);
    expect(report.cycles).toHaveLength(6);
    expect(report.cycles.filter((c) => c.index !== undefined)).toHaveLength(2);
    expect(report.acked, text).toBeGreaterThan(50);
  }, 100_000);
});
