/**
 * KILL [CONNECTION | QUERY] id. KILL QUERY interrupts the statement the connection is running
 * (its client gets 1317); KILL [CONNECTION] also closes the connection, which rolls back its
 * transaction (a client waiting for a statement's answer sees the connection drop, as with
 * MySQL). Killing one's own connection answers 1317 and then closes it; KILL QUERY of one's own
 * connection answers 1317. Unknown ids are 1094; another account's connection needs SUPER or
 * CONNECTION_ADMIN (else 1095). With `--workers` the target may be in another process of the same
 * server (peers.ts); connections of other nodes are unknown here (1094).
 */
import { SqlError } from '../../errors/index.js';
import type { EvalContext } from '../expr/index.js';
import type { Expr } from '../parse/index.js';
import type { Value } from '../../types/index.js';
import { okResult } from './ddl.js';
import { evalConstant } from './set-statement.js';
import type { OkResult } from './types.js';

/** What KILL can do to a session of this process. */
export interface KillTarget {
  /** The account name the session runs as. */
  readonly user: string;
  /** Interrupts the running statement, if any (the connection stays). */
  killQuery(): void;
  /** Interrupts the running statement and closes the connection (after its reply when `afterReply`). */
  killConnection(afterReply: boolean): void;
}

export interface KillStatement {
  readonly connectionId: Expr;
  readonly queryOnly: boolean;
}

/** The session running KILL. */
export interface Killer {
  readonly connectionId: number;
  readonly user: string;
  mayKillAny(): Promise<boolean>;
}

export async function runKill(
  stmt: KillStatement,
  self: Killer,
  ctx: EvalContext,
  find: (connectionId: number) => Promise<KillTarget | undefined>,
): Promise<OkResult> {
  const id = threadId(evalConstant(stmt.connectionId, ctx));
  const target = await find(id);
  if (target === undefined) throw SqlError.of('ER_NO_SUCH_THREAD', String(id));
  if (target.user !== self.user && !(await self.mayKillAny())) throw SqlError.of('ER_KILL_DENIED_ERROR', String(id));
  if (id === self.connectionId) {
    if (!stmt.queryOnly) target.killConnection(true);
    throw SqlError.of('ER_QUERY_INTERRUPTED');
  }
  if (stmt.queryOnly) target.killQuery();
  else target.killConnection(false);
  return okResult();
}

/** MySQL converts the argument to an unsigned integer (a non-number is 0). */
function threadId(v: Value): number {
  const n = typeof v === 'bigint' ? Number(v) : Number(typeof v === 'string' || typeof v === 'number' ? v : NaN);
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
}
