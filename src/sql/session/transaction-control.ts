/**
 * Transaction state of one session (MySQL semantics over optimistic snapshot isolation).
 *
 * - Autocommit (no open transaction, @@autocommit=1): each statement runs in its own txn; on a
 *   write conflict (1213) the WHOLE statement is re-run from scratch in a new txn, up to
 *   MAX_STATEMENT_RETRIES times with a small random backoff, then the 1213 is surfaced.
 *   Statements that wrote nothing just release their snapshot. A statement that keeps losing
 *   takes the engine's RetryGate so it cannot starve behind fresh statements.
 * - Open transaction (BEGIN / START TRANSACTION, or @@autocommit=0 from its first statement):
 *   statements run in it; each one is atomic (checkpoint before, rollbackTo on failure, the
 *   transaction stays open). A 1213 from a statement or from COMMIT rolls the WHOLE
 *   transaction back and closes it before the error is returned (sysbench's next statement is
 *   BEGIN). Open transactions are never replayed.
 * - The snapshot is taken lazily, at the first statement that needs it (as InnoDB does without
 *   WITH CONSISTENT SNAPSHOT).
 * - DML and locking SELECTs of an open transaction are current reads, as in InnoDB: after its
 *   first statement they read the latest committed rows (merged with the transaction's own
 *   writes), and what they write or lock conflicts at COMMIT only with commits after the
 *   statement began (txn/types.ts beginCurrentRead). `BEGIN; SELECT k ...; UPDATE t SET k = k + 1`
 *   thus adds to a value another session committed in between instead of failing with 1213,
 *   and a transaction's window for write conflicts runs from its first write, not its first read.
 * - Every isolation level runs as snapshot isolation (REPEATABLE READ-like, first committer wins).
 * - The observer hears how each transaction that took a snapshot ends (committed, conflicted =
 *   1213 returned to the client, rolled back) and of every autocommit retry.
 */
import { SqlError } from '../../errors/index.js';
import { isWriteConflict, type Txn, type TxnStore } from '../../txn/index.js';
import { isGeneratedIdCollision } from '../exec/index.js';
import { NO_OBSERVER, type EngineObserver, type TransactionOutcome } from './observer.js';
import { RETRY_PRIORITY_AFTER, type RetryGate } from './retry-gate.js';

export const MAX_STATEMENT_RETRIES = 10;

export interface TxnPolicy {
  /** @@autocommit */
  autocommit(): boolean;
  /** @@transaction_read_only */
  readOnlyDefault(): boolean;
}

/** Runs a statement in `txn`; `readOnly` is true inside READ ONLY transactions. */
export type TxnBody<T> = (txn: Txn, readOnly: boolean) => Promise<T>;
/** The keys a statement likely reads first, computed on demand (TransactionControl.run). */
export type Prefetch = () => readonly Uint8Array[];

interface Savepoint {
  readonly name: string;
  readonly cp: number;
}

interface OpenTxn {
  txn: Txn | null;
  readonly readOnly: boolean;
  readonly savepoints: Savepoint[];
}

export class TransactionControl {
  private open: OpenTxn | null = null;
  /** SET TRANSACTION READ ONLY|READ WRITE without a scope: applies to the next transaction only. */
  private nextReadOnly: boolean | undefined;
  /** Statement retries after conflicts, for status counters. */
  retries = 0;

  constructor(
    private readonly txns: TxnStore,
    private readonly policy: TxnPolicy,
    private readonly gate: RetryGate,
    private readonly observer: EngineObserver = NO_OBSERVER,
  ) {}

  /** IN_TRANS: an explicit or autocommit=0 transaction is open. */
  inTransaction(): boolean {
    return this.open !== null;
  }

  /** The open transaction's txn, if its snapshot was taken. */
  currentTxn(): Txn | null {
    return this.open?.txn ?? null;
  }

  /**
   * Runs one data statement with the rules above; `currentRead` for DML and locking SELECTs.
   * `prefetch`: the keys the statement likely reads first (prefetch-keys.ts), asked for only when
   * it starts a transaction whose snapshot costs a round trip (TxnStore.begin).
   */
  run<T>(body: TxnBody<T>, currentRead = false, prefetch?: Prefetch): Promise<T> {
    if (this.open === null && !this.policy.autocommit()) this.open = this.newOpen(this.policy.readOnlyDefault());
    if (this.open !== null) return this.runInOpen(this.open, body, currentRead, prefetch);
    return this.runAutocommit(body, prefetch);
  }

  /** BEGIN / START TRANSACTION: implicitly commits an open transaction first. */
  async begin(readOnly: boolean): Promise<void> {
    await this.commit();
    this.open = this.newOpen(readOnly || this.policy.readOnlyDefault());
  }

  /** COMMIT (also the implicit commit before DDL, BEGIN and SET autocommit=1). */
  async commit(): Promise<void> {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    if (open.txn === null) return;
    try {
      await open.txn.commit();
    } catch (err) {
      this.observer.transaction(isWriteConflict(err) ? 'conflicted' : 'rolledBack');
      throw err;
    }
    this.observer.transaction('committed');
  }

  rollback(): void {
    this.abandon('rolledBack');
  }

  /** Rolls the open transaction back; `outcome` tells the observer why. */
  private abandon(outcome: TransactionOutcome): void {
    const open = this.open;
    this.open = null;
    if (open === null || open.txn === null) return;
    open.txn.rollback();
    this.observer.transaction(outcome);
  }

  async savepoint(name: string): Promise<void> {
    if (this.open === null && !this.policy.autocommit()) this.open = this.newOpen(this.policy.readOnlyDefault());
    const open = this.open;
    if (open === null) return; // autocommit: the savepoint ends with its own empty transaction
    const txn = await this.ensureStarted(open);
    const existing = this.findSavepoint(open, name);
    if (existing >= 0) open.savepoints.splice(existing, 1);
    open.savepoints.push({ name, cp: txn.checkpoint() });
  }

  rollbackToSavepoint(name: string): void {
    const open = this.open;
    const idx = open === null ? -1 : this.findSavepoint(open, name);
    const sp = open?.savepoints[idx];
    if (open === null || sp === undefined) throw SqlError.of('ER_SP_DOES_NOT_EXIST', 'SAVEPOINT', name);
    open.txn?.rollbackTo(sp.cp);
    open.savepoints.length = idx + 1;
  }

  releaseSavepoint(name: string): void {
    const open = this.open;
    const idx = open === null ? -1 : this.findSavepoint(open, name);
    if (open === null || idx < 0) throw SqlError.of('ER_SP_DOES_NOT_EXIST', 'SAVEPOINT', name);
    open.savepoints.length = idx;
  }

  setNextReadOnly(readOnly: boolean): void {
    this.nextReadOnly = readOnly;
  }

  private newOpen(readOnly: boolean): OpenTxn {
    const next = this.takeNextReadOnly();
    return { txn: null, readOnly: readOnly || next, savepoints: [] };
  }

  private takeNextReadOnly(): boolean {
    const next = this.nextReadOnly;
    this.nextReadOnly = undefined;
    return next ?? false;
  }

  private findSavepoint(open: OpenTxn, name: string): number {
    const lower = name.toLowerCase();
    return open.savepoints.findIndex((s) => s.name.toLowerCase() === lower);
  }

  private async ensureStarted(open: OpenTxn, prefetch?: Prefetch): Promise<Txn> {
    open.txn ??= this.txns.beginNow?.() ?? (await this.txns.begin(prefetch?.()));
    return open.txn;
  }

  private async runInOpen<T>(open: OpenTxn, body: TxnBody<T>, currentRead: boolean, prefetch?: Prefetch): Promise<T> {
    // The transaction's first statement reads at a snapshot taken now: current already.
    const fresh = open.txn === null;
    // Started (or startable without I/O): no ensureStarted promise per statement.
    open.txn ??= this.txns.beginNow?.() ?? null;
    const txn = open.txn ?? (await this.ensureStarted(open, prefetch));
    const cp = txn.checkpoint();
    try {
      if (currentRead && !fresh) await txn.beginCurrentRead();
      return await body(txn, open.readOnly);
    } catch (err) {
      if (isWriteConflict(err) || txn.finished) {
        if (this.open === open) this.abandon(isWriteConflict(err) ? 'conflicted' : 'rolledBack');
      } else {
        txn.rollbackTo(cp);
      }
      throw err;
    } finally {
      txn.endCurrentRead();
    }
  }

  private async runAutocommit<T>(body: TxnBody<T>, prefetch?: Prefetch): Promise<T> {
    const readOnly = this.takeNextReadOnly() || this.policy.readOnlyDefault();
    if (this.gate.held) await this.gate.waitIdle();
    let release: (() => void) | null = null;
    try {
      for (let attempt = 0; ; attempt++) {
        const txn = this.txns.beginNow?.() ?? (await this.txns.begin(prefetch?.()));
        try {
          const result = await body(txn, readOnly);
          if (txn.writeCount === 0) txn.rollback();
          else await txn.commit();
          this.observer.transaction('committed');
          return result;
        } catch (err) {
          txn.rollback();
          const conflict = isWriteConflict(err);
          // A generated id found taken at commit: its block is gone, so the statement runs again with new ids.
          const collision = !conflict && isGeneratedIdCollision(err);
          if ((!conflict && !collision) || attempt >= MAX_STATEMENT_RETRIES) {
            this.observer.transaction(conflict ? 'conflicted' : 'rolledBack');
            throw err;
          }
          this.retries++;
          this.observer.transaction('retried');
          if (collision) continue;
          if (release === null && attempt + 1 >= RETRY_PRIORITY_AFTER) release = await this.gate.acquire();
          else await backoff(attempt);
        }
      }
    } finally {
      release?.();
    }
  }
}

/** 0..2^attempt ms (capped at 32 ms), so concurrent retries spread out. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(32, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
