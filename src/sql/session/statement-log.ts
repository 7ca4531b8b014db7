/**
 * What happens after a statement besides its result: failures go to the diagnostics area
 * (SHOW WARNINGS shows them); internal errors (not SqlErrors) and slow statements are logged
 * once, by statement kind and digest only (never the text: it may hold secrets).
 */
import { isSqlError } from '../../errors/index.js';
import type { Statement } from '../parse/index.js';
import type { Diagnostics } from './diagnostics.js';
import type { EngineCore } from './engine-core.js';

export interface StatementEvent {
  readonly engine: EngineCore;
  readonly diagnostics: Diagnostics;
  readonly connectionId: number;
  readonly stmt: Statement | null;
  readonly digest: string | null;
}

export function recordFailure(e: StatementEvent, err: unknown): void {
  if (isSqlError(err)) {
    e.diagnostics.add('Error', err.errno, err.message);
    return;
  }
  e.diagnostics.add('Error', 1105, err instanceof Error ? err.message : String(err));
  e.engine.logger.error(
    { err, event: 'internal-error', conn: e.connectionId, kind: e.stmt?.kind ?? 'parse', digest: e.digest },
    'internal error while running a statement',
  );
}

/** Counts and logs a statement slower than @@long_query_time. */
export function noteSlow(e: StatementEvent, ms: number): void {
  e.engine.counters.slowQueries++;
  e.engine.logger.warn(
    { event: 'slow-query', conn: e.connectionId, kind: e.stmt?.kind, digest: e.digest, ms: Math.round(ms) },
    'slow query',
  );
}
