/**
 * What the clients know about every transfer they attempted, by outcome:
 *
 * - acknowledged: COMMIT returned OK; the transfer must be in the table exactly once.
 * - rejected: the server answered a statement of the transaction (or its COMMIT) with an ERR
 *   packet; the transaction was not applied and must not be in the table.
 * - skipped: the client rolled back itself (insufficient funds, or an anomaly) and the server
 *   acknowledged the ROLLBACK; must not be in the table.
 * - unknown: the connection failed (reset, lost, timeout) before an answer; the transfer may or
 *   may not be in the table. `commitSent` says whether the COMMIT had been sent.
 */
import { ErrorCounts } from './bank-errors.js';
import type { Transfer } from './bank-rows.js';

/** The result of one transfer attempt, as the client saw it. */
export type Attempt =
  | { readonly kind: 'acknowledged' }
  | { readonly kind: 'rejected'; readonly code: string; readonly usable: boolean }
  | { readonly kind: 'skipped'; readonly reason: 'insufficient' | 'anomaly' }
  | { readonly kind: 'unknown'; readonly code: string; readonly commitSent: boolean };

/** The read-only view of a ledger that verification needs. */
export interface LedgerView {
  readonly acknowledged: ReadonlyMap<number, Transfer>;
  readonly rejected: ReadonlyMap<number, Transfer>;
  readonly skipped: ReadonlyMap<number, Transfer>;
  readonly unknown: ReadonlyMap<number, Transfer>;
  /** Unknown outcomes whose COMMIT was never sent: a correct server cannot have applied them. */
  readonly unknownBeforeCommit: ReadonlySet<number>;
  /** Anomalies the clients saw during the run (unexpected statement results), the first few. */
  readonly anomalies: readonly string[];
  /** How many anomalies there were in all. */
  readonly anomalyCount: number;
}

const MAX_ANOMALIES = 100;

export class Ledger implements LedgerView {
  readonly acknowledged = new Map<number, Transfer>();
  readonly rejected = new Map<number, Transfer>();
  readonly skipped = new Map<number, Transfer>();
  readonly unknown = new Map<number, Transfer>();
  readonly unknownBeforeCommit = new Set<number>();
  /** Errors of transfer statements, by code. */
  readonly errors = new ErrorCounts();
  /** Failed connection attempts, by code. */
  readonly connectErrors = new ErrorCounts();
  readonly anomalies: string[] = [];
  anomalyCount = 0;
  /** Connections opened after the first one of each client. */
  reconnects = 0;

  record(t: Transfer, a: Attempt): void {
    switch (a.kind) {
      case 'acknowledged':
        this.acknowledged.set(t.id, t);
        break;
      case 'rejected':
        this.rejected.set(t.id, t);
        this.errors.add(a.code);
        break;
      case 'skipped':
        this.skipped.set(t.id, t);
        break;
      case 'unknown':
        this.unknown.set(t.id, t);
        if (!a.commitSent) this.unknownBeforeCommit.add(t.id);
        this.errors.add(a.code);
        break;
    }
  }

  anomaly(message: string): void {
    this.anomalyCount++;
    if (this.anomalies.length < MAX_ANOMALIES) this.anomalies.push(message);
  }

  attempts(): number {
    return this.acknowledged.size + this.rejected.size + this.skipped.size + this.unknown.size;
  }
}
