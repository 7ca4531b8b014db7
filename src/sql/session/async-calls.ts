/**
 * Runs a statement's waiting function calls (SLEEP, GET_LOCK and the other user-lock functions,
 * expr/functions/async-functions.ts) before the statement itself: each call's arguments are
 * evaluated once (they may use parameters and variables, not table rows), the call is awaited
 * without blocking the event loop (KILL QUERY interrupts it), and the result is handed to the
 * compiled evaluator through EvalContext.awaited, by name and argument values (equal calls
 * take their results in text order). Calls run in text order, inner calls first; unlike MySQL,
 * a call under IF/CASE runs even when its branch is not taken. A statement with such calls is
 * planned afresh (cached plans would keep the previous run's evaluators). `DO e1, e2` evaluates
 * its expressions here.
 */
import type { Value } from '../../types/index.js';
import type { TxnStore } from '../../txn/index.js';
import { compileStatement, type Cancellation } from '../exec/index.js';
import { ASYNC_FUNCTION_NAMES, awaitedKey, compileExpr, valueToString, type Scope } from '../expr/index.js';
import type { Expr, Statement } from '../parse/index.js';
import { isSqlError, SqlError } from '../../errors/index.js';
import { StatementEvalContext, type ContextHost } from './exec-context.js';
import type { Planner } from './session.js';
import type { ExecResult } from './types.js';
import { pause, userLocksFor } from './user-locks.js';

const EMPTY_SCOPE: Scope = { resolve: () => undefined };
const WALKED: ReadonlySet<string> = new Set(['select', 'update', 'delete', 'set', 'noop']);

interface Call {
  readonly name: string;
  readonly args: readonly Expr[];
}

export interface AsyncEnv {
  readonly host: ContextHost;
  readonly txns: TxnStore;
  readonly cancel: Cancellation;
  /** CURRENT_USER(): the matched account as `user@host`. */
  readonly account: () => Promise<string>;
}

/** Results of the running statement's awaited calls by key, per session (queued for equal calls). */
const results = new WeakMap<ContextHost, Map<string, Value[]>>();
const callsOf = new WeakMap<Statement, readonly Call[]>();

/** The next result for `key`; the last one again once the queue is used up (re-evaluation). */
export function awaitedFor(host: ContextHost, key: string): Value | undefined {
  const queue = results.get(host)?.get(key);
  if (queue === undefined || queue.length === 0) return undefined;
  return queue.length > 1 ? queue.shift() : queue[0];
}

/** Runs `run` with the statement's awaited calls done first (or just `run` when it has none). */
export function withAsyncCalls(env: AsyncEnv, stmt: Statement, params: readonly Value[], planner: Planner, run: (p: Planner) => Promise<ExecResult>): Promise<ExecResult> {
  const calls = findCalls(stmt);
  const doExprs = stmt.kind === 'noop' ? stmt.exprs : undefined;
  if (calls.length === 0 && doExprs === undefined) return run(planner);
  return runWithCalls(env, stmt, params, planner, run, calls, doExprs);
}

async function runWithCalls(
  env: AsyncEnv,
  stmt: Statement,
  params: readonly Value[],
  planner: Planner,
  run: (p: Planner) => Promise<ExecResult>,
  calls: readonly Call[],
  doExprs: readonly Expr[] | undefined,
): Promise<ExecResult> {
  const done = new Map<string, Value[]>();
  results.set(env.host, done);
  try {
    const ctx = new StatementEvalContext(env.host, params);
    for (const call of calls) {
      const args = evalArgs(call, ctx);
      if (args === undefined) continue;
      const key = awaitedKey(call.name, args);
      const v = await runCall(env, call.name, args);
      const queue = done.get(key);
      if (queue === undefined) done.set(key, [v]);
      else queue.push(v);
    }
    for (const e of doExprs ?? []) compileExpr(e, EMPTY_SCOPE, 'field list')([], ctx);
    if (calls.length === 0) return await run(planner);
    const db = env.host.currentDatabase();
    return await run((schema) => compileStatement(stmt, schema, db));
  } finally {
    results.delete(env.host);
  }
}

/** Session end: its user-level locks go. */
export function releaseSessionLocks(txns: TxnStore, conn: number): Promise<void> {
  return userLocksFor(txns).sessionClosed(conn);
}

function findCalls(stmt: Statement): readonly Call[] {
  if (!WALKED.has(stmt.kind)) return [];
  let calls = callsOf.get(stmt);
  if (calls === undefined) {
    const out: Call[] = [];
    walk(stmt, out);
    calls = out;
    callsOf.set(stmt, calls);
  }
  return calls;
}

/** Depth-first over the plain-object AST; a call is listed after the calls in its arguments. */
function walk(node: unknown, out: Call[]): void {
  if (Array.isArray(node)) {
    for (const n of node) walk(n, out);
    return;
  }
  if (typeof node !== 'object' || node === null || Object.getPrototypeOf(node) !== Object.prototype) return;
  const o = node as Record<string, unknown>;
  for (const k of Object.keys(o)) walk(o[k], out);
  if (o['kind'] === 'func' && typeof o['name'] === 'string' && ASYNC_FUNCTION_NAMES.has(o['name']) && Array.isArray(o['args'])) {
    out.push({ name: o['name'], args: o['args'] as readonly Expr[] });
  }
}

/** The argument values, or undefined when they need table rows (the evaluator then raises 1235). */
function evalArgs(call: Call, ctx: StatementEvalContext): Value[] | undefined {
  let evals;
  try {
    evals = call.args.map((a) => compileExpr(a, EMPTY_SCOPE, 'field list'));
  } catch (err) {
    if (isSqlError(err) && err.errno === 1054) return undefined;
    throw err;
  }
  return evals.map((ev) => ev([], ctx));
}

function text(v: Value | undefined): string | null {
  return v === undefined || v === null ? null : valueToString(v);
}

function seconds(v: Value | undefined): number | null {
  if (v === undefined || v === null) return null;
  const n = Number(valueToString(v));
  return Number.isNaN(n) ? 0 : n;
}

async function runCall(env: AsyncEnv, name: string, args: readonly Value[]): Promise<Value> {
  const locks = userLocksFor(env.txns);
  const conn = env.host.connectionId;
  switch (name) {
    case 'SLEEP': {
      const s = seconds(args[0]);
      if (s === null || s < 0) throw SqlError.of('ER_WRONG_ARGUMENTS', 'sleep.');
      await pause(s * 1000, env.cancel);
      return 0n;
    }
    case 'GET_LOCK':
      return locks.acquire(text(args[0]), conn, seconds(args[1]) ?? 0, env.cancel);
    case 'RELEASE_LOCK':
      return locks.release(text(args[0]), conn);
    case 'IS_FREE_LOCK':
      return locks.isFree(text(args[0]));
    case 'IS_USED_LOCK':
      return locks.isUsed(text(args[0]));
    case 'RELEASE_ALL_LOCKS':
      return locks.releaseAll(conn);
    case 'CURRENT_USER':
      return env.account();
    default:
      throw SqlError.of('ER_NOT_SUPPORTED_YET', name);
  }
}
