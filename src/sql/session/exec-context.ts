/**
 * The contexts handed to `expr` and `exec`: one per statement, reading session state through
 * the narrow ContextHost. NOW() is fixed at the statement's start.
 */
import type { Catalog, Schema } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import type { DateTime, RowSink, Value } from '../../types/index.js';
import type { EvalContext } from '../expr/index.js';
import type { Cancellation, ExecContext } from '../exec/index.js';
import type { VarScope } from '../parse/index.js';
import { awaitedFor } from './async-calls.js';
import { wallClock } from './clock.js';

/** What a statement context needs from its session. */
export interface ContextHost {
  readonly connectionId: number;
  readVariable(scope: VarScope, name: string): Value;
  lastInsertId(): bigint;
  setLastInsertId(id: bigint): void;
  rowCount(): bigint;
  foundRows(): bigint;
  setFoundRows(n: bigint): void;
  currentDatabase(): string | null;
  currentUser(): string;
  strictMode(): boolean;
  timeZone(): string;
  warn(code: number, message: string): void;
}

export class StatementEvalContext implements EvalContext {
  readonly strict: boolean;
  private readonly startMs = Date.now();
  private nowValue: DateTime | undefined;

  constructor(
    protected readonly host: ContextHost,
    readonly params: readonly Value[],
  ) {
    this.strict = host.strictMode();
  }

  getVariable(scope: VarScope, name: string): Value {
    return this.host.readVariable(scope, name);
  }
  lastInsertId(): bigint {
    return this.host.lastInsertId();
  }
  setLastInsertId(id: bigint): void {
    this.host.setLastInsertId(id);
  }
  rowCount(): bigint {
    return this.host.rowCount();
  }
  foundRows(): bigint {
    return this.host.foundRows();
  }
  currentDatabase(): string | null {
    return this.host.currentDatabase();
  }
  currentUser(): string {
    return this.host.currentUser();
  }
  connectionId(): number {
    return this.host.connectionId;
  }
  now(): DateTime {
    this.nowValue ??= wallClock(this.startMs, this.host.timeZone());
    return this.nowValue;
  }
  warn(code: number, message: string): void {
    this.host.warn(code, message);
  }
  awaited(key: string): Value | undefined {
    return awaitedFor(this.host, key);
  }
}

/** What a data statement reads from the statement it belongs to (statement-control.ts). */
export interface StatementEnv {
  readonly cancel: Cancellation;
  readonly rowSink?: RowSink | undefined;
  /** Rows of information_schema `table` (canonical name) as of the statement's schema and transaction. */
  virtualRows(table: string, schema: Schema, txn: Txn): Promise<Value[][]>;
}

export class StatementExecContext extends StatementEvalContext implements ExecContext {
  readonly cancel: Cancellation;

  constructor(
    host: ContextHost,
    params: readonly Value[],
    readonly txn: Txn,
    readonly schema: Schema,
    readonly catalog: Catalog,
    readonly foundRowsFlag: boolean,
    private readonly env: StatementEnv,
  ) {
    super(host, params);
    this.cancel = env.cancel;
  }

  virtualRows(table: string): Promise<Value[][]> {
    return this.env.virtualRows(table, this.schema, this.txn);
  }

  get rowSink(): RowSink | undefined {
    return this.env.rowSink;
  }

  setFoundRows(n: bigint): void {
    this.host.setFoundRows(n);
  }
}
