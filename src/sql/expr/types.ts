/**
 * The contracts between expression evaluation and its callers (planner, executors, session).
 * See `.tmp/contracts.md` ("expr").
 */
import type { VarScope } from '../parse/ast.js';
import type { ColumnType, DateTime, Value } from '../../types/index.js';

/** Where a resolved column lives in the input row, and its type. */
export interface ColumnBinding {
  readonly offset: number;
  readonly type: ColumnType;
  readonly notNull: boolean;
}

/** Name resolution supplied by the planner. Throws SqlError ER_NON_UNIQ_ERROR when ambiguous; returns undefined when unknown. */
export interface Scope {
  resolve(ref: { readonly db?: string; readonly table?: string; readonly name: string }): ColumnBinding | undefined;
  /**
   * Optional (extension of the contract): the session's database at compile time, used only in
   * the text of `FUNCTION db.name does not exist` (without it the message names the function alone).
   */
  readonly currentDatabase?: string | null;
}

/** Per-statement state an evaluator may read. */
export interface EvalContext {
  readonly params: readonly Value[];
  /** Throws ER_UNKNOWN_SYSTEM_VARIABLE. */
  getVariable(scope: VarScope, name: string): Value;
  lastInsertId(): bigint;
  /** LAST_INSERT_ID(expr) sets the value later LAST_INSERT_ID() calls return (absent: not kept). */
  setLastInsertId?(id: bigint): void;
  rowCount(): bigint;
  foundRows(): bigint;
  currentDatabase(): string | null;
  /** e.g. 'root@127.0.0.1' */
  currentUser(): string;
  connectionId(): number;
  /** Statement start, fsp 6. */
  now(): DateTime;
  /** STRICT_TRANS_TABLES in sql_mode. */
  readonly strict: boolean;
  warn(code: number, message: string): void;
  /**
   * The result of a waiting function call (SLEEP, GET_LOCK ...) the session ran before the
   * statement, by `awaitedKey(name, argument values)`; undefined when it was not run
   * (functions/async-functions.ts).
   */
  awaited?(key: string): Value | undefined;
}

/** A compiled expression: reads the row by offset, returns one value. */
export type Evaluator = (row: readonly Value[], ctx: EvalContext) => Value;

/** A type with its nullability, as `inferType` returns it. */
export interface TypeInfo {
  readonly type: ColumnType;
  readonly notNull: boolean;
}
