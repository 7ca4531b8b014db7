/** The bank report (text and JSON), exit codes and error classification. */
import { describe, expect, it } from 'vitest';
import { classifyError, ErrorCounts } from '../../src/cli/check/bank-errors.js';
import { parseBankUrl, type BankOptions } from '../../src/cli/check/bank-options.js';
import { exitCodeOf, formatReport, resultJson, type BankResult } from '../../src/cli/check/bank-report.js';
import type { Verification } from '../../src/cli/check/bank-verify.js';

const options: BankOptions = {
  target: parseBankUrl('mysql://root:pw@127.0.0.1:4000/bankcheck'),
  accounts: 20,
  clients: 8,
  durationS: 5,
  initial: 1000n,
  seed: 42,
  timeoutS: 10,
  json: false,
};

const counts = {
  attempted: 130,
  acknowledged: 100,
  rejected: 20,
  skipped: 5,
  unknown: 5,
  unknownBeforeCommit: 2,
  reconnects: 5,
  anomalies: 0,
};

function verification(failures: Verification['failures'] = []): Verification {
  return {
    passed: failures.length === 0,
    failures,
    expectedTotal: 20000n,
    actualTotal: failures.length === 0 ? 20000n : 19990n,
    transferRows: 103,
    unknownApplied: 3,
    unknownNotApplied: 2,
  };
}

const pass: BankResult = {
  status: 'PASS',
  options,
  counts,
  errors: { '1213': 20, ECONNRESET: 5 },
  connectErrors: { ECONNREFUSED: 12 },
  elapsedS: 5,
  verification: verification(),
};

describe('formatReport', () => {
  it('prints PASS on its own line with the counts and rate, and no password', () => {
    const text = formatReport(pass);
    const lines = text.split('\n');
    expect(lines[0]).toBe('shale check bank: mysql://root@127.0.0.1:4000/bankcheck, 20 accounts x 1000, 8 clients, 5 s, seed 42');
    expect(lines[1]).toBe('PASS');
    expect(text).toMatch(/acknowledged\s+100/);
    expect(text).toMatch(/rejected\s+20/);
    expect(text).toMatch(/unknown\s+5 {2}\(connection lost or timed out: 3 applied, 2 not applied; 2 before COMMIT was sent\)/);
    expect(text).toMatch(/statement errors\s+25 {2}1213 x20, ECONNRESET x5/);
    expect(text).toMatch(/connect failures\s+12 {2}ECONNREFUSED x12; reconnects 5/);
    expect(text).toMatch(/transfers\/s\s+20\.0/);
    expect(text).not.toContain('pw');
    expect(text).not.toContain('invariant failed');
  });

  it('prints FAIL with each failed invariant and its examples', () => {
    const text = formatReport({
      ...pass,
      status: 'FAIL',
      verification: verification([
        { invariant: 'total-conserved', message: 'total balance is 19990, expected 20000 (difference -10)', examples: [] },
        { invariant: 'acknowledged-durable', message: '1 acknowledged transfers are not in the table exactly once', examples: ['transfer 5 (1 -> 2, 10) was acknowledged but appears 0 times'] },
      ]),
    });
    expect(text.split('\n')[1]).toBe('FAIL');
    expect(text).toContain('  invariant failed: total-conserved: total balance is 19990, expected 20000 (difference -10)\n');
    expect(text).toContain('    e.g. transfer 5 (1 -> 2, 10) was acknowledged but appears 0 times\n');
  });

  it('prints ERROR with the reason when the check could not run', () => {
    const text = formatReport({ status: 'ERROR', options, error: 'cannot connect to mysql://root@127.0.0.1:4000/bankcheck: ECONNREFUSED' });
    expect(text.split('\n').slice(1, 3)).toEqual(['ERROR', '  error: cannot connect to mysql://root@127.0.0.1:4000/bankcheck: ECONNREFUSED']);
  });
});

describe('resultJson', () => {
  it('is plain JSON with bigints as strings', () => {
    const json = JSON.parse(JSON.stringify(resultJson(pass))) as Record<string, unknown>;
    expect(json).toMatchObject({
      status: 'PASS',
      target: 'mysql://root@127.0.0.1:4000/bankcheck',
      config: { accounts: 20, clients: 8, durationS: 5, initial: '1000', seed: 42 },
      counts: { acknowledged: 100, rejected: 20, unknown: 5, unknownApplied: 3, unknownNotApplied: 2 },
      errors: { '1213': 20, ECONNRESET: 5 },
      transfersPerS: 20,
      verification: { passed: true, expectedTotal: '20000', actualTotal: '20000', failures: [] },
    });
  });
});

describe('exit codes and errors', () => {
  it('maps PASS/FAIL/ERROR to 0/1/2', () => {
    expect([exitCodeOf('PASS'), exitCodeOf('FAIL'), exitCodeOf('ERROR')]).toEqual([0, 1, 2]);
  });

  it('treats only ERR packets on a live connection as server errors', () => {
    const err = Object.assign(new Error('Deadlock'), { errno: 1213, sqlState: '40001', code: 'ER_LOCK_DEADLOCK' });
    expect(classifyError(err)).toEqual({ server: true, code: '1213', errno: 1213, message: 'Deadlock' });
    expect(classifyError(Object.assign(new Error('reset'), { errno: -104, code: 'ECONNRESET' }))).toMatchObject({ server: false, code: 'ECONNRESET' });
    expect(classifyError(Object.assign(new Error('timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }))).toMatchObject({ server: false });
    expect(classifyError('boom')).toEqual({ server: false, code: 'UNKNOWN', message: 'boom' });
  });

  it('counts errors by code, largest first', () => {
    const c = new ErrorCounts();
    for (const code of ['ECONNRESET', '1213', '1213']) c.add(code);
    expect(c.describe()).toBe('1213 x2, ECONNRESET x1');
    expect(c.total()).toBe(3);
    expect(new ErrorCounts().describe()).toBe('none');
  });
});
