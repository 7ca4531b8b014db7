/** An ExecContext that counts the warnings raised through it (for DML info texts). */
import type { Catalog, Schema } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import type { DateTime, Value } from '../../types/index.js';
import type { VarScope } from '../parse/index.js';
import type { Cancellation } from './cancellation.js';
import type { ExecContext } from './context.js';

export class CountingContext implements ExecContext {
  warnings = 0;
  readonly params: readonly Value[];
  readonly strict: boolean;
  readonly txn: Txn;
  readonly schema: Schema;
  readonly catalog: Catalog;
  readonly foundRowsFlag: boolean;
  readonly cancel: Cancellation;

  constructor(private readonly inner: ExecContext) {
    this.params = inner.params;
    this.strict = inner.strict;
    this.txn = inner.txn;
    this.schema = inner.schema;
    this.catalog = inner.catalog;
    this.foundRowsFlag = inner.foundRowsFlag;
    this.cancel = inner.cancel;
  }

  warn(code: number, message: string): void {
    this.warnings++;
    this.inner.warn(code, message);
  }
  getVariable(scope: VarScope, name: string): Value {
    return this.inner.getVariable(scope, name);
  }
  lastInsertId(): bigint {
    return this.inner.lastInsertId();
  }
  rowCount(): bigint {
    return this.inner.rowCount();
  }
  foundRows(): bigint {
    return this.inner.foundRows();
  }
  currentDatabase(): string | null {
    return this.inner.currentDatabase();
  }
  currentUser(): string {
    return this.inner.currentUser();
  }
  connectionId(): number {
    return this.inner.connectionId();
  }
  now(): DateTime {
    return this.inner.now();
  }
  setLastInsertId(id: bigint): void {
    this.inner.setLastInsertId(id);
  }
  setFoundRows(n: bigint): void {
    this.inner.setFoundRows(n);
  }
  virtualRows(table: string): Promise<Value[][]> {
    return this.inner.virtualRows(table);
  }
}
