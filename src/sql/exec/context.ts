/** What a compiled statement runs with (built per statement by the session). */
import type { Catalog, Schema } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import type { EvalContext } from '../expr/index.js';
import type { ExecResult, ResultColumn, RowSink, Value } from '../../types/index.js';
import type { ExplainTop, PlanNode } from '../plan/index.js';
import type { Cancellation } from './cancellation.js';

export interface ExecContext extends EvalContext {
  readonly txn: Txn;
  readonly schema: Schema;
  readonly catalog: Catalog;
  /** CLIENT_FOUND_ROWS: UPDATE reports matched rather than changed rows. */
  readonly foundRowsFlag: boolean;
  /** LAST_INSERT_ID() for later statements. */
  setLastInsertId(id: bigint): void;
  setFoundRows(n: bigint): void;
  /** KILL QUERY / max_execution_time: executors check it between batches (cancellation.ts). */
  readonly cancel: Cancellation;
  /** The rows of an information_schema table (plan/info-schema.ts), in its column order. */
  virtualRows(table: string): Promise<Value[][]>;
  /** Where a large SELECT result is streamed to, when the caller can take it (see select.ts). */
  readonly rowSink?: RowSink | undefined;
}

export interface CompiledStatement {
  /** Result columns; empty for DML. */
  readonly columns: readonly ResultColumn[];
  readonly schemaVersion: bigint;
  readonly readOnly: boolean;
  /** The plan it runs (slow-query log summaries); absent for EXPLAIN. */
  readonly plan?: PlanNode | ExplainTop;
  run(ctx: ExecContext): Promise<ExecResult>;
}
