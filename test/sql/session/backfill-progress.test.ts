/** CREATE INDEX progress text (PROCESSLIST State) and its throttled log lines. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { backfillReporter, formatBackfillProgress, LOG_EVERY_MS } from '../../../src/sql/session/backfill-progress.js';

const status = (rowsDone: number, rowsTotal: number) => ({ table: 't', index: 'k', rowsDone, rowsTotal });

describe('formatBackfillProgress', () => {
  it('shows rows, percentage and an ETA from the rate so far', () => {
    expect(formatBackfillProgress(status(40000, 100000), 2000)).toBe('backfilling index k: 40000/100000 rows (40%), ETA 3 s');
    expect(formatBackfillProgress(status(1, 3), 10)).toBe('backfilling index k: 1/3 rows (33%), ETA 1 s');
  });

  it('no ETA before the first batch or at the end; an empty table is 100%', () => {
    expect(formatBackfillProgress(status(0, 500), 0)).toBe('backfilling index k: 0/500 rows (0%)');
    expect(formatBackfillProgress(status(500, 500), 900)).toBe('backfilling index k: 500/500 rows (100%)');
    expect(formatBackfillProgress(status(0, 0), 0)).toBe('backfilling index k: 0/0 rows (100%)');
  });

  it('rows inserted after the count never push past 100%', () => {
    expect(formatBackfillProgress(status(120, 100), 50)).toBe('backfilling index k: 120/120 rows (100%)');
  });
});

describe('backfillReporter', () => {
  it('updates the State every batch, logs at most every LOG_EVERY_MS, and stops when the statement is killed', () => {
    let t = 0;
    const states: Array<string | null> = [];
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line).msg as string) });
    let killed = false;
    const report = backfillReporter(
      {
        logger,
        connectionId: 7,
        setState: (s) => states.push(s),
        check: () => {
          if (killed) throw new Error('killed');
        },
      },
      () => t,
    );
    report(status(0, 100));
    t = 1000;
    report(status(10, 100));
    t = LOG_EVERY_MS + 1;
    report(status(20, 100));
    expect(states).toEqual([
      'backfilling index k: 0/100 rows (0%)',
      'backfilling index k: 10/100 rows (10%), ETA 9 s',
      'backfilling index k: 20/100 rows (20%), ETA 9 s',
    ]);
    expect(lines).toEqual(['backfilling index k: 20/100 rows (20%), ETA 9 s']);
    killed = true;
    expect(() => report(status(30, 100))).toThrow('killed');
  });
});
