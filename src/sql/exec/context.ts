/** What a compiled statement runs with (built per statement by the session). */
import type { Catalog, Schema } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import type { EvalContext } from '../expr/index.js';
import type { ExecResult, ResultColumn } from '../../types/index.js';

export interface ExecContext extends EvalContext {
  readonly txn: Txn;
  readonly schema: Schema;
  readonly catalog: Catalog;
  /** CLIENT_FOUND_ROWS: UPDATE reports matched rather than changed rows. */
  readonly foundRowsFlag: boolean;
  /** LAST_INSERT_ID() for later statements. */
  setLastInsertId(id: bigint): void;
  setFoundRows(n: bigint): void;
}

export interface CompiledStatement {
  /** Result columns; empty for DML. */
  readonly columns: readonly ResultColumn[];
  readonly schemaVersion: bigint;
  readonly readOnly: boolean;
  run(ctx: ExecContext): Promise<ExecResult>;
}
