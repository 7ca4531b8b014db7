/**
 * The bank invariants on hand-made data: a consistent state passes, and each kind of
 * inconsistency (lost acknowledged transfer, rejected transfer applied, money created or lost,
 * partial or double application, overdraft, ...) fails the invariant that should catch it.
 */
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/cli/check/bank-ledger.js';
import type { AccountRow, Transfer } from '../../src/cli/check/bank-rows.js';
import { verifyBank, type InvariantName, type VerifyInput } from '../../src/cli/check/bank-verify.js';

const ACCOUNTS = 4;
const INITIAL = 100n;

const t = (id: number, src: number, dst: number, amount: number): Transfer => ({ id, src, dst, amount: BigInt(amount) });

/** Balances after applying `applied` to every account starting at INITIAL. */
function balancesAfter(applied: readonly Transfer[]): AccountRow[] {
  const b = Array.from({ length: ACCOUNTS }, () => INITIAL);
  for (const x of applied) {
    b[x.src] = b[x.src]! - x.amount;
    b[x.dst] = b[x.dst]! + x.amount;
  }
  return b.map((balance, id) => ({ id, balance }));
}

const T1 = t(1, 0, 1, 10);
const T2 = t(2, 1, 2, 20);
const T3 = t(3, 2, 3, 30);
const REJECTED = t(4, 3, 0, 5);
const SKIPPED = t(5, 0, 3, 500);
const UNKNOWN_APPLIED = t(6, 3, 1, 7);
const UNKNOWN_LOST = t(7, 1, 0, 8);

/** A ledger: T1-T3 acknowledged, REJECTED rejected, SKIPPED skipped, two unknown. */
function ledger(): Ledger {
  const l = new Ledger();
  for (const x of [T1, T2, T3]) l.record(x, { kind: 'acknowledged' });
  l.record(REJECTED, { kind: 'rejected', code: '1213', usable: true });
  l.record(SKIPPED, { kind: 'skipped', reason: 'insufficient' });
  l.record(UNKNOWN_APPLIED, { kind: 'unknown', code: 'ECONNRESET', commitSent: true });
  l.record(UNKNOWN_LOST, { kind: 'unknown', code: 'ECONNRESET', commitSent: true });
  return l;
}

const APPLIED = [T1, T2, T3, UNKNOWN_APPLIED];

function input(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return {
    accounts: ACCOUNTS,
    initial: INITIAL,
    ledger: ledger(),
    accountRows: balancesAfter(APPLIED),
    transferRows: APPLIED,
    ...overrides,
  };
}

function failed(i: VerifyInput): InvariantName[] {
  return verifyBank(i).failures.map((f) => f.invariant);
}

describe('verifyBank', () => {
  it('passes a consistent state and counts unknown outcomes by whether they applied', () => {
    const v = verifyBank(input());
    expect(v.failures).toEqual([]);
    expect(v.passed).toBe(true);
    expect(v).toMatchObject({ expectedTotal: 400n, actualTotal: 400n, transferRows: 4, unknownApplied: 1, unknownNotApplied: 1 });
  });

  it('fails when an acknowledged transfer is lost (rolled back with its balances)', () => {
    const applied = [T1, T3, UNKNOWN_APPLIED];
    const v = verifyBank(input({ accountRows: balancesAfter(applied), transferRows: applied }));
    expect(v.passed).toBe(false);
    expect(v.failures.map((f) => f.invariant)).toEqual(['acknowledged-durable']);
    expect(v.failures[0]!.examples[0]).toContain('transfer 2 (1 -> 2, 20) was acknowledged but appears 0 times');
  });

  it('fails when a rejected transfer is in the table', () => {
    const applied = [...APPLIED, REJECTED];
    const v = verifyBank(input({ accountRows: balancesAfter(applied), transferRows: applied }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['no-rejected-applied']);
    expect(v.failures[0]!.examples[0]).toContain('transfer 4 (3 -> 0, 5) was rejected by the server');
  });

  it('fails when a transfer whose COMMIT was never sent is in the table', () => {
    const l = ledger();
    const lostEarly = t(9, 2, 0, 3);
    l.record(lostEarly, { kind: 'unknown', code: 'ECONNRESET', commitSent: false });
    const applied = [...APPLIED, lostEarly];
    const v = verifyBank(input({ ledger: l, accountRows: balancesAfter(applied), transferRows: applied }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['no-uncommitted-applied']);
    expect(v.failures[0]!.examples[0]).toContain('transfer 9 (2 -> 0, 3) is in the table but its connection was lost before COMMIT');
    // Not applied: fine, and counted as an unknown outcome that did not apply.
    expect(verifyBank(input({ ledger: l }))).toMatchObject({ passed: true, unknownNotApplied: 2 });
  });

  it('fails when a transfer the client rolled back is in the table', () => {
    const applied = [...APPLIED, SKIPPED];
    expect(failed(input({ accountRows: balancesAfter(applied), transferRows: applied }))).toContain('no-rejected-applied');
  });

  it('fails when the total is not conserved', () => {
    const rows = balancesAfter(APPLIED).map((r) => (r.id === 2 ? { ...r, balance: r.balance + 1n } : r));
    const v = verifyBank(input({ accountRows: rows }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['total-conserved', 'balances-match-transfers']);
    expect(v.failures[0]!.message).toBe('total balance is 401, expected 400 (difference 1)');
    expect(v.actualTotal).toBe(401n);
  });

  it('fails when a transfer was applied partially (debit without credit)', () => {
    const rows = balancesAfter(APPLIED).map((r) => (r.id === T3.dst ? { ...r, balance: r.balance - T3.amount } : r));
    const v = verifyBank(input({ accountRows: rows }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['total-conserved', 'balances-match-transfers']);
    expect(v.failures[1]!.examples).toEqual(['account 3: balance 93, transfers say 123 (difference -30)']);
  });

  it('fails when a transfer moved money twice but was logged once (total conserved)', () => {
    const rows = balancesAfter([...APPLIED, T2]);
    expect(failed(input({ accountRows: rows }))).toEqual(['balances-match-transfers']);
  });

  it('fails when balances moved without a transfer row (lost log row of an unknown transfer)', () => {
    const v = verifyBank(input({ transferRows: [T1, T2, T3] }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['balances-match-transfers']);
    expect(v.unknownApplied).toBe(0);
  });

  it('fails on transfer rows never issued, rows that differ from what was issued, and duplicates', () => {
    const foreign = t(99, 0, 1, 1);
    const applied = [...APPLIED, foreign];
    expect(failed(input({ accountRows: balancesAfter(applied), transferRows: applied }))).toEqual(['no-unexpected-transfers']);

    const altered = [T1, T2, t(3, 2, 3, 31), UNKNOWN_APPLIED];
    const v = verifyBank(input({ accountRows: balancesAfter(altered), transferRows: altered }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['no-unexpected-transfers']);
    expect(v.failures[0]!.examples[0]).toContain('differs from what was issued');

    const twiceUnknown = [...APPLIED, UNKNOWN_APPLIED];
    expect(failed(input({ accountRows: balancesAfter(twiceUnknown), transferRows: twiceUnknown }))).toEqual([
      'no-unexpected-transfers',
    ]);
  });

  it('fails when an acknowledged transfer appears twice', () => {
    const applied = [...APPLIED, T1];
    const v = verifyBank(input({ accountRows: balancesAfter(applied), transferRows: applied }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['acknowledged-durable']);
    expect(v.failures[0]!.examples[0]).toContain('appears 2 times');
  });

  it('fails on a negative balance even when everything else adds up', () => {
    const big = t(8, 0, 1, 150);
    const l = ledger();
    l.record(big, { kind: 'acknowledged' });
    const applied = [...APPLIED, big];
    const v = verifyBank(input({ ledger: l, accountRows: balancesAfter(applied), transferRows: applied }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['no-overdraft']);
    expect(v.failures[0]!.examples).toEqual(['account 0: balance -60']);
  });

  it('fails when an account row is missing, duplicated or unexpected', () => {
    const rows = balancesAfter(APPLIED);
    expect(failed(input({ accountRows: rows.slice(1) }))).toContain('accounts-intact');
    expect(failed(input({ accountRows: [...rows, { id: 9, balance: 0n }] }))).toEqual(['accounts-intact']);
    expect(failed(input({ accountRows: [...rows, rows[0]!] }))).toContain('accounts-intact');
  });

  it('fails when the clients saw anomalies', () => {
    const l = ledger();
    l.anomaly('transfer 9: UPDATE of account 1: expected 1 affected row, got 0');
    const v = verifyBank(input({ ledger: l }));
    expect(v.failures.map((f) => f.invariant)).toEqual(['no-anomalies']);
    expect(v.failures[0]!.examples).toHaveLength(1);
  });

  it('keeps at most five examples per failed invariant but counts all offenders', () => {
    const l = new Ledger();
    const acked = Array.from({ length: 20 }, (_, i) => t(100 + i, 0, 1, 1));
    for (const x of acked) l.record(x, { kind: 'acknowledged' });
    const v = verifyBank(input({ ledger: l, accountRows: balancesAfter([]), transferRows: [] }));
    expect(v.failures[0]!.message).toMatch(/^20 acknowledged transfers/);
    expect(v.failures[0]!.examples).toHaveLength(5);
  });
});
