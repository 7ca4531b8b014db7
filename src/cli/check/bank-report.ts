/**
 * The result of a bank run and its two renderings: a human report (PASS/FAIL on its own line,
 * counts, rates, failed invariants with examples) and a JSON object for machines.
 */
import type { BankOptions } from './bank-options.js';
import { describeTarget } from './bank-options.js';
import type { Verification } from './bank-verify.js';

export type BankStatus = 'PASS' | 'FAIL' | 'ERROR';

export interface BankCounts {
  readonly attempted: number;
  readonly acknowledged: number;
  readonly rejected: number;
  readonly skipped: number;
  readonly unknown: number;
  /** Unknown outcomes whose COMMIT was never sent (connection lost earlier in the transaction). */
  readonly unknownBeforeCommit: number;
  readonly reconnects: number;
  readonly anomalies: number;
}

export interface BankResult {
  readonly status: BankStatus;
  readonly options: BankOptions;
  readonly counts?: BankCounts;
  /** Statement errors by code (server errno or client error code). */
  readonly errors?: Record<string, number>;
  /** Failed connection attempts by code. */
  readonly connectErrors?: Record<string, number>;
  readonly elapsedS?: number;
  readonly verification?: Verification;
  /** Why the check could not run (status ERROR). */
  readonly error?: string;
}

/** Exit code of the command: 0 PASS, 1 FAIL, 2 could not check. */
export function exitCodeOf(status: BankStatus): number {
  return status === 'PASS' ? 0 : status === 'FAIL' ? 1 : 2;
}

function describeCounts(counts: Record<string, number> | undefined): string {
  const parts = Object.entries(counts ?? {}).map(([code, n]) => `${code} x${n}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function sum(counts: Record<string, number> | undefined): number {
  return Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
}

function rate(r: BankResult): number {
  return r.counts !== undefined && r.elapsedS !== undefined && r.elapsedS > 0 ? r.counts.acknowledged / r.elapsedS : 0;
}

/** The human-readable report, lines joined with \n (ends with a newline). */
export function formatReport(r: BankResult): string {
  const o = r.options;
  const lines = [
    `shale check bank: ${describeTarget(o.target)}, ${o.accounts} accounts x ${o.initial.toString()}, ` +
      `${o.clients} clients, ${o.durationS} s, seed ${o.seed}`,
    r.status,
  ];
  if (r.error !== undefined) lines.push(`  error: ${r.error}`);
  const c = r.counts;
  const v = r.verification;
  if (c !== undefined) {
    const row = (label: string, value: string, note: string): string => `  ${label.padEnd(18)}${value.padStart(10)}  ${note}`;
    const unknownNote =
      v !== undefined
        ? `(connection lost or timed out: ${v.unknownApplied} applied, ${v.unknownNotApplied} not applied; ${c.unknownBeforeCommit} before COMMIT was sent)`
        : `(connection lost or timed out; ${c.unknownBeforeCommit} before COMMIT was sent)`;
    lines.push(
      row('acknowledged', String(c.acknowledged), '(COMMIT returned OK)'),
      row('rejected', String(c.rejected), '(server returned an error, rolled back)'),
      row('skipped', String(c.skipped), '(insufficient funds, rolled back by the client)'),
      row('unknown', String(c.unknown), unknownNote),
      row('statement errors', String(sum(r.errors)), describeCounts(r.errors)),
      row('connect failures', String(sum(r.connectErrors)), `${describeCounts(r.connectErrors)}; reconnects ${c.reconnects}`),
      row('transfers/s', rate(r).toFixed(1), '(acknowledged per second)'),
      row('elapsed', (r.elapsedS ?? 0).toFixed(1), 's'),
    );
  }
  if (v !== undefined) {
    lines.push(
      `  verified          ${v.transferRows} transfer rows, total balance ${v.actualTotal.toString()} (expected ${v.expectedTotal.toString()})`,
    );
    for (const f of v.failures) {
      lines.push(`  invariant failed: ${f.invariant}: ${f.message}`);
      for (const e of f.examples) lines.push(`    e.g. ${e}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** The machine-readable result (bigints as decimal strings). */
export function resultJson(r: BankResult): Record<string, unknown> {
  const o = r.options;
  const v = r.verification;
  return {
    status: r.status,
    target: describeTarget(o.target),
    config: {
      accounts: o.accounts,
      clients: o.clients,
      durationS: o.durationS,
      initial: o.initial.toString(),
      seed: o.seed,
      timeoutS: o.timeoutS,
    },
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(r.counts !== undefined
      ? {
          counts: {
            ...r.counts,
            ...(v !== undefined ? { unknownApplied: v.unknownApplied, unknownNotApplied: v.unknownNotApplied } : {}),
          },
          errors: r.errors ?? {},
          connectErrors: r.connectErrors ?? {},
          elapsedS: Number((r.elapsedS ?? 0).toFixed(3)),
          transfersPerS: Number(rate(r).toFixed(1)),
        }
      : {}),
    ...(v !== undefined
      ? {
          verification: {
            passed: v.passed,
            transferRows: v.transferRows,
            expectedTotal: v.expectedTotal.toString(),
            actualTotal: v.actualTotal.toString(),
            failures: v.failures,
          },
        }
      : {}),
  };
}
