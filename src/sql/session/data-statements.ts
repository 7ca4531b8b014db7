/**
 * Data statements (SELECT, INSERT, UPDATE, DELETE, EXPLAIN) as the session runs them: which
 * read the latest committed rows inside a transaction, and which keys a statement that starts a
 * transaction asks the store to read along with its snapshot (exec/prefetch-keys.ts).
 */
import type { Schema } from '../../catalog/index.js';
import { prefetchKeys, type CompiledStatement } from '../exec/index.js';
import type { Statement } from '../parse/index.js';
import type { Value } from '../../types/index.js';
import type { Prefetch } from './transaction-control.js';

/** Plans a data statement against the schema of the transaction it runs in. */
export type Planner = (schema: Schema) => CompiledStatement;

const DATA_KINDS: ReadonlySet<string> = new Set(['select', 'insert', 'update', 'delete', 'explain']);
/** Data statements whose plan may start with a point get; an INSERT's never does, and may be large to plan twice. */
const POINT_KINDS: ReadonlySet<string> = new Set(['select', 'update', 'delete']);

export function isDataStatement(stmt: Statement): boolean {
  return DATA_KINDS.has(stmt.kind);
}

/** Statements that read the latest committed rows inside a transaction, as InnoDB's do (transaction-control.ts). */
export function isCurrentRead(stmt: Statement): boolean {
  if (stmt.kind === 'select') return stmt.lock !== undefined;
  return stmt.kind === 'insert' || stmt.kind === 'update' || stmt.kind === 'delete';
}

/**
 * The keys `stmt` likely reads first, planned on demand against the newest schema the node has
 * seen; none when there is none yet or planning fails (the statement then plans, and fails, in
 * its transaction as usual). Undefined for kinds that never start with a point get.
 */
export function prefetchFor(stmt: Statement, schemas: { newestSchema(): Schema | null }, planner: Planner, params: readonly Value[]): Prefetch | undefined {
  if (!POINT_KINDS.has(stmt.kind)) return undefined;
  return () => {
    const schema = schemas.newestSchema();
    if (schema === null) return [];
    try {
      return prefetchKeys(planner(schema).plan, params);
    } catch {
      return [];
    }
  };
}
