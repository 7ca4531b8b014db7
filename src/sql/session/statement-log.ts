/**
 * What happens after a statement besides its result: failures go to the diagnostics area
 * (SHOW WARNINGS shows them); internal errors (not SqlErrors) and slow statements are logged
 * once. Logs never carry the statement text (it may hold secrets): only its normalized form
 * (every literal replaced by `?`) and the SHA-256 digest of that form.
 */
import { createHash } from 'node:crypto';
import { isSqlError } from '../../errors/index.js';
import type { CompiledStatement } from '../exec/index.js';
import { normalizeStatement, type Statement } from '../parse/index.js';
import { planSummary } from '../plan/index.js';
import type { ExecResult } from '../../types/index.js';
import type { Diagnostics } from './diagnostics.js';
import type { EngineCore } from './engine-core.js';

export interface StatementEvent {
  readonly engine: EngineCore;
  readonly diagnostics: Diagnostics;
  readonly connectionId: number;
  readonly user: string;
  readonly db: string | null;
  /** The statement text as received (never logged as is). */
  readonly sql: string | null;
  readonly stmt: Statement | null;
}

export interface StatementOutcome {
  readonly ms: number;
  readonly result: ExecResult | undefined;
  /** MySQL error number when the statement failed. */
  readonly errno: number | undefined;
  readonly plan: CompiledStatement['plan'];
}

/** The normalized text of `sql` and its digest (hex SHA-256 of the normalized text). */
export function statementDigest(sql: string | null): { digest: string | null; query: string | null } {
  if (sql === null) return { digest: null, query: null };
  const query = normalizeStatement(sql);
  return { digest: createHash('sha256').update(query).digest('hex'), query };
}

export function recordFailure(e: StatementEvent, err: unknown): void {
  if (isSqlError(err)) {
    e.diagnostics.add('Error', err.errno, err.message);
    return;
  }
  e.diagnostics.add('Error', 1105, err instanceof Error ? err.message : String(err));
  e.engine.logger.error(
    { err, event: 'internal-error', conn: e.connectionId, kind: e.stmt?.kind ?? 'parse', ...statementDigest(e.sql) },
    'internal error while running a statement',
  );
}

/** The fields of one slow-query log line. */
export function slowQueryFields(e: StatementEvent, o: StatementOutcome): Record<string, unknown> {
  const r = o.result;
  return {
    event: 'slow-query',
    conn: e.connectionId,
    user: e.user,
    db: e.db,
    kind: e.stmt?.kind ?? 'parse',
    ...statementDigest(e.sql),
    ms: Math.round(o.ms),
    rowsSent: r?.kind === 'rows' ? r.streamed ?? r.rows.length : 0,
    rowsAffected: r?.kind === 'ok' ? Number(r.affectedRows) : 0,
    ...(o.plan !== undefined ? { plan: planSummary(o.plan) } : {}),
    ...(o.errno !== undefined ? { errno: o.errno } : {}),
  };
}

/** Counts and logs a statement slower than @@long_query_time. */
export function noteSlow(e: StatementEvent, o: StatementOutcome): void {
  e.engine.counters.slowQueries++;
  e.engine.logger.warn(slowQueryFields(e, o), 'slow query');
}
