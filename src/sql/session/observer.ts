/**
 * What the engine reports as it works, for metrics (the CLI plugs in a Prometheus observer).
 * Calls are synchronous and must be cheap; the default observer ignores everything.
 */
export interface StatementObservation {
  /** Statement kind ('select', 'insert', ..., 'parse' when it failed to parse). */
  readonly kind: string;
  readonly ms: number;
  /** MySQL error number when the statement failed. */
  readonly errno?: number;
}

export type TransactionOutcome = 'committed' | 'conflicted' | 'retried' | 'rolledBack';

export interface EngineObserver {
  statement(o: StatementObservation): void;
  transaction(outcome: TransactionOutcome): void;
  connections(open: number): void;
  schemaVersion(version: bigint): void;
}

export const NO_OBSERVER: EngineObserver = {
  statement: () => undefined,
  transaction: () => undefined,
  connections: () => undefined,
  schemaVersion: () => undefined,
};
