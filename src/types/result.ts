/**
 * What a statement returns, shared by the SQL engine (which produces it) and the wire protocol
 * (which encodes it): an OK with counters, or a complete result set.
 */
import type { ColumnType } from './column-type.js';
import type { Value } from './value.js';

/** One column of a result set, as ColumnDefinition41 describes it. */
export interface ResultColumn {
  /** Label the client sees (alias, or the expression text for unaliased expressions). */
  readonly name: string;
  /** Underlying column name, '' for expressions. */
  readonly orgName: string;
  /** Table alias, '' for expressions. */
  readonly table: string;
  readonly orgTable: string;
  /** Database of the table, '' for expressions. */
  readonly schema: string;
  readonly type: ColumnType;
  readonly notNull: boolean;
  readonly primaryKey: boolean;
  readonly uniqueKey: boolean;
  readonly multipleKey: boolean;
  readonly autoIncrement: boolean;
  /** Only for COM_FIELD_LIST: the column default as text, null when none. */
  readonly defaultText?: string | null;
}

export interface OkResult {
  readonly kind: 'ok';
  readonly affectedRows: bigint;
  readonly insertId: bigint;
  /** Human-readable info, e.g. `Rows matched: 1  Changed: 1  Warnings: 0`; '' when none. */
  readonly info: string;
  readonly warnings: number;
}

/**
 * Receives a large result set while the statement runs, so it never sits whole in memory. The
 * engine calls `begin` once, then `rows` per batch (awaiting it is the back-pressure).
 */
export interface RowSink {
  begin(columns: readonly ResultColumn[]): Promise<void>;
  rows(batch: ReadonlyArray<readonly Value[]>): Promise<void>;
}

/** A complete result set. Values follow `columns[i].type` (see types/value.ts). */
export interface RowsResult {
  readonly kind: 'rows';
  /** Set when the rows already went to a RowSink (`rows` is then empty): how many were sent. */
  readonly streamed?: number;
  readonly columns: readonly ResultColumn[];
  readonly rows: ReadonlyArray<readonly Value[]>;
  readonly warnings: number;
}

export type ExecResult = OkResult | RowsResult;
