/**
 * What the harness knows about every transaction its clients ran, by unique txn id (kept across
 * server restarts). A transaction is `committed` once its client got OK (acknowledged) or, after
 * a restart, when its rows are found although the outcome was unknown; `aborted` when it is known
 * never to have committed (an error before or at COMMIT, or rows absent after an unknown outcome);
 * `unknown` while its COMMIT (or autocommit statement) was in flight when the server died.
 */

/** 'txn': BEGIN; 3 rows into t1; 2 rows into t2; counter + 1; COMMIT. 'auto': one autocommit 3-row INSERT into t1. */
export type TxnKind = 'txn' | 'auto';

export interface TxnRecord {
  readonly id: number;
  readonly kind: TxnKind;
  /** The counters row it increments (txn kind only). */
  readonly counter: number | null;
}

export const T1_ROWS = 3;
export const T2_ROWS = 2;

/** Rows a committed transaction of `kind` has in t1 and t2. */
export function expectedRows(kind: TxnKind): { t1: number; t2: number } {
  return kind === 'txn' ? { t1: T1_ROWS, t2: T2_ROWS } : { t1: T1_ROWS, t2: 0 };
}

export interface CycleCounts {
  acked: number;
  unknown: number;
  aborted: number;
}

export class Ledger {
  private nextId = 1;
  /** Committed transactions; `acked` = the client got OK (it must never disappear). */
  readonly committed = new Map<number, { readonly rec: TxnRecord; readonly acked: boolean }>();
  readonly unknown = new Map<number, TxnRecord>();
  readonly aborted = new Map<number, TxnRecord>();
  /** Counts since the last takeCycleCounts(). */
  private cycle: CycleCounts = { acked: 0, unknown: 0, aborted: 0 };

  newRecord(kind: TxnKind, counter: number | null): TxnRecord {
    return { id: this.nextId++, kind, counter };
  }

  ack(rec: TxnRecord): void {
    this.committed.set(rec.id, { rec, acked: true });
    this.cycle.acked++;
  }

  outcomeUnknown(rec: TxnRecord): void {
    this.unknown.set(rec.id, rec);
    this.cycle.unknown++;
  }

  abort(rec: TxnRecord): void {
    this.aborted.set(rec.id, rec);
    this.cycle.aborted++;
  }

  /** After a restart: unknown outcomes become committed (rows found) or aborted (absent). */
  resolveUnknown(present: (id: number) => boolean): { committed: number; aborted: number } {
    let committed = 0;
    let aborted = 0;
    for (const [id, rec] of this.unknown) {
      if (present(id)) {
        this.committed.set(id, { rec, acked: false });
        committed++;
      } else {
        this.aborted.set(id, rec);
        aborted++;
      }
    }
    this.unknown.clear();
    return { committed, aborted };
  }

  /** counters.n per id that the committed transactions add up to. */
  expectedCounters(): Map<number, number> {
    const out = new Map<number, number>();
    for (const { rec } of this.committed.values()) {
      if (rec.counter !== null) out.set(rec.counter, (out.get(rec.counter) ?? 0) + 1);
    }
    return out;
  }

  takeCycleCounts(): CycleCounts {
    const c = this.cycle;
    this.cycle = { acked: 0, unknown: 0, aborted: 0 };
    return c;
  }

  get ackedTotal(): number {
    let n = 0;
    for (const c of this.committed.values()) if (c.acked) n++;
    return n;
  }
}
