/**
 * The bank invariants, checked from the ledger (what the clients were told) and the final rows
 * (what the database holds). Pure: no I/O, so each check can be shown to fail on crafted data.
 */
import type { LedgerView } from './bank-ledger.js';
import type { AccountRow, Transfer } from './bank-rows.js';

export type InvariantName =
  | 'accounts-intact'
  | 'total-conserved'
  | 'acknowledged-durable'
  | 'no-rejected-applied'
  | 'no-uncommitted-applied'
  | 'no-unexpected-transfers'
  | 'balances-match-transfers'
  | 'no-overdraft'
  | 'no-anomalies';

export interface InvariantFailure {
  readonly invariant: InvariantName;
  readonly message: string;
  /** A few concrete offenders. */
  readonly examples: readonly string[];
}

export interface VerifyInput {
  readonly accounts: number;
  readonly initial: bigint;
  readonly ledger: LedgerView;
  readonly accountRows: readonly AccountRow[];
  readonly transferRows: readonly Transfer[];
}

export interface Verification {
  readonly passed: boolean;
  readonly failures: readonly InvariantFailure[];
  readonly expectedTotal: bigint;
  readonly actualTotal: bigint;
  readonly transferRows: number;
  /** Unknown-outcome transfers found applied / not applied. */
  readonly unknownApplied: number;
  readonly unknownNotApplied: number;
}

const MAX_EXAMPLES = 5;

/** Collects offenders of one invariant, keeping the count and the first few examples. */
class Offenders {
  count = 0;
  readonly examples: string[] = [];
  add(example: string): void {
    this.count++;
    if (this.examples.length < MAX_EXAMPLES) this.examples.push(example);
  }
}

function describe(t: Transfer): string {
  return `transfer ${t.id} (${t.src} -> ${t.dst}, ${t.amount.toString()})`;
}

/** Checks every invariant; `passed` is true when none failed. */
export function verifyBank(input: VerifyInput): Verification {
  const { ledger, accounts, initial } = input;
  const failures: InvariantFailure[] = [];
  const fail = (invariant: InvariantName, o: Offenders, message: string): void => {
    if (o.count > 0) failures.push({ invariant, message: `${o.count} ${message}`, examples: o.examples });
  };

  // Each account id 0..accounts-1 exactly once.
  const balances = new Map<number, bigint>();
  const badAccounts = new Offenders();
  for (const row of input.accountRows) {
    if (row.id < 0 || row.id >= accounts) badAccounts.add(`unexpected account ${row.id}`);
    else if (balances.has(row.id)) badAccounts.add(`account ${row.id} appears more than once`);
    balances.set(row.id, row.balance);
  }
  for (let id = 0; id < accounts; id++) if (!balances.has(id)) badAccounts.add(`account ${id} is missing`);
  fail('accounts-intact', badAccounts, 'account rows missing, duplicated or unexpected');

  // Total balance conserved.
  const expectedTotal = BigInt(accounts) * initial;
  let actualTotal = 0n;
  for (const row of input.accountRows) actualTotal += row.balance;
  if (actualTotal !== expectedTotal) {
    failures.push({
      invariant: 'total-conserved',
      message: `total balance is ${actualTotal.toString()}, expected ${expectedTotal.toString()} (difference ${(actualTotal - expectedTotal).toString()})`,
      examples: [],
    });
  }

  // Transfer rows: occurrences per id, and each id is one the clients may have applied.
  const occurrences = new Map<number, number>();
  const rejectedApplied = new Offenders();
  const uncommittedApplied = new Offenders();
  const unexpected = new Offenders();
  for (const row of input.transferRows) {
    occurrences.set(row.id, (occurrences.get(row.id) ?? 0) + 1);
    const rejected = ledger.rejected.get(row.id);
    const skipped = ledger.skipped.get(row.id);
    const issued = ledger.acknowledged.get(row.id) ?? ledger.unknown.get(row.id);
    if (rejected !== undefined) rejectedApplied.add(`${describe(rejected)} was rejected by the server but is in the table`);
    else if (skipped !== undefined) rejectedApplied.add(`${describe(skipped)} was rolled back by the client but is in the table`);
    else if (issued === undefined) unexpected.add(`${describe(row)} was never issued by this run`);
    else if (issued.src !== row.src || issued.dst !== row.dst || issued.amount !== row.amount) {
      unexpected.add(`${describe(row)} differs from what was issued: ${describe(issued)}`);
    } else if (ledger.unknownBeforeCommit.has(row.id)) {
      uncommittedApplied.add(`${describe(issued)} is in the table but its connection was lost before COMMIT was sent`);
    }
  }
  for (const [id, n] of occurrences) {
    if (n > 1 && !ledger.acknowledged.has(id)) unexpected.add(`transfer ${id} appears ${n} times`);
  }

  // Every acknowledged transfer exactly once.
  const lost = new Offenders();
  for (const t of ledger.acknowledged.values()) {
    const n = occurrences.get(t.id) ?? 0;
    if (n !== 1) lost.add(`${describe(t)} was acknowledged but appears ${n} times`);
  }
  fail('acknowledged-durable', lost, 'acknowledged transfers are not in the table exactly once');
  fail('no-rejected-applied', rejectedApplied, 'rejected or rolled-back transfers are in the table');
  fail('no-uncommitted-applied', uncommittedApplied, 'transfers whose COMMIT was never sent are in the table');
  fail('no-unexpected-transfers', unexpected, 'transfer rows were never issued, differ from what was issued, or are duplicated');

  // Each balance equals initial - outgoing + incoming over the transfers table.
  const derived = new Map<number, bigint>();
  for (let id = 0; id < accounts; id++) derived.set(id, initial);
  for (const row of input.transferRows) {
    derived.set(row.src, (derived.get(row.src) ?? initial) - row.amount);
    derived.set(row.dst, (derived.get(row.dst) ?? initial) + row.amount);
  }
  const mismatched = new Offenders();
  const overdrawn = new Offenders();
  for (const row of input.accountRows) {
    const want = derived.get(row.id);
    if (want !== undefined && want !== row.balance) {
      mismatched.add(`account ${row.id}: balance ${row.balance.toString()}, transfers say ${want.toString()} (difference ${(row.balance - want).toString()})`);
    }
    if (row.balance < 0n) overdrawn.add(`account ${row.id}: balance ${row.balance.toString()}`);
  }
  fail('balances-match-transfers', mismatched, 'account balances do not match the transfers table (a transfer applied partially or twice)');
  fail('no-overdraft', overdrawn, 'accounts have a negative balance (transfers only commit when the source can pay)');

  if (ledger.anomalyCount > 0) {
    failures.push({
      invariant: 'no-anomalies',
      message: `${ledger.anomalyCount} statements returned unexpected results during the run`,
      examples: ledger.anomalies.slice(0, MAX_EXAMPLES),
    });
  }

  let unknownApplied = 0;
  for (const id of ledger.unknown.keys()) if (occurrences.has(id)) unknownApplied++;
  return {
    passed: failures.length === 0,
    failures,
    expectedTotal,
    actualTotal,
    transferRows: input.transferRows.length,
    unknownApplied,
    unknownNotApplied: ledger.unknown.size - unknownApplied,
  };
}
