/**
 * What the session does around every statement beyond dispatching it: LOCK TABLES checks
 * (table-locks.ts), waiting function calls run first (async-calls.ts), FOUND_ROWS() recorded
 * after a SELECT (found-rows.ts).
 */
import type { Value } from '../../types/index.js';
import { compileStatement } from '../exec/index.js';
import type { Statement } from '../parse/index.js';
import { ROOT } from './account-match.js';
import { withAsyncCalls, type AsyncEnv } from './async-calls.js';
import { noteFoundRows } from './found-rows.js';
import type { Planner } from './session.js';
import { checkTableLocks } from './table-locks.js';
import type { ExecResult } from './types.js';
import type { UserRegistry } from './users.js';

/**
 * Runs the statement after its LOCK TABLES check and awaited calls. Not async (one promise less
 * per statement): a failed check throws synchronously, which the caller's try block handles like
 * a rejection. The caller then runs afterStatement() with the result.
 */
export function aroundStatement(env: AsyncEnv, stmt: Statement, params: readonly Value[], planner: Planner, run: (p: Planner) => Promise<ExecResult>): Promise<ExecResult> {
  checkTableLocks(env.host, stmt);
  return withAsyncCalls(env, stmt, params, planner, run);
}

/** FOUND_ROWS() after a SELECT; a promise only when SQL_CALC_FOUND_ROWS needs a counting query. */
export function afterStatement(env: AsyncEnv, stmt: Statement, result: ExecResult, run: (p: Planner) => Promise<ExecResult>): Promise<void> | undefined {
  if (stmt.kind !== 'select') return undefined;
  const db = env.host.currentDatabase();
  return noteFoundRows(stmt, result, (n) => env.host.setFoundRows(n), (q) => run((schema) => compileStatement(q, schema, db)));
}

/** The account `user` from `host` matched, as CURRENT_USER() prints it (root: the built-in root@%). */
export async function currentAccount(users: UserRegistry, user: string, host: string): Promise<string> {
  const a = user === ROOT.user ? ROOT : (await users.grantsFor(user, host)).account;
  return a === undefined ? `${user}@${host}` : `${a.user}@${a.host}`;
}
