/**
 * Functions that wait: SLEEP, the user-level locks (GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK,
 * IS_USED_LOCK, RELEASE_ALL_LOCKS) and CURRENT_USER (an account lookup). Evaluators are synchronous, so the session runs these calls
 * before the statement (sql/session/async-calls.ts: arguments evaluated once, the wait done
 * without blocking the event loop) and the evaluator, which evaluates the arguments again,
 * finds the result by name and argument values. A call whose arguments depend on table rows
 * cannot be run that way and raises 1235.
 */
import { SqlError } from '../../../errors/index.js';
import type { ColumnType, Value } from '../../../types/index.js';
import { bigintType, varcharType } from '../result-types.js';
import type { Evaluator } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { fixed, type FunctionDef, type FunctionTable } from './function-def.js';

function awaitedFn(name: string, min: number, max: number, type: ColumnType): FunctionDef {
  return {
    min,
    max,
    type: fixed(type),
    notNull: () => false,
    compile: (args, c): Evaluator => {
      const evals = args.map((a) => c.compile(a));
      return (row, ctx) => {
        const v = ctx.awaited?.(awaitedKey(name, evals.map((ev) => ev(row, ctx))));
        if (v === undefined) throw SqlError.of('ER_NOT_SUPPORTED_YET', `${name}() with arguments that depend on table rows`);
        return v;
      };
    },
  };
}

/** How a call is identified between the session that ran it and its evaluator: name and argument values. */
export function awaitedKey(name: string, args: readonly Value[]): string {
  return [name, ...args.map((v) => (v === null ? '\u0001' : `${typeof v}:${valueToString(v)}`))].join('\u0000');
}

/** CURRENT_USER(): the account the session matched (`user@host` pattern), looked up by the session; USER() where it was not. */
const currentUser: FunctionDef = {
  min: 0,
  max: 0,
  type: fixed(varcharType(288)),
  notNull: () => true,
  compile: (): Evaluator => (_row, ctx) => ctx.awaited?.(awaitedKey('CURRENT_USER', [])) ?? ctx.currentUser(),
};

export const ASYNC_FUNCTIONS: FunctionTable = {
  CURRENT_USER: currentUser,
  SLEEP: awaitedFn('SLEEP', 1, 1, bigintType(1)),
  GET_LOCK: awaitedFn('GET_LOCK', 2, 2, bigintType(1)),
  RELEASE_LOCK: awaitedFn('RELEASE_LOCK', 1, 1, bigintType(1)),
  IS_FREE_LOCK: awaitedFn('IS_FREE_LOCK', 1, 1, bigintType(1)),
  IS_USED_LOCK: awaitedFn('IS_USED_LOCK', 1, 1, bigintType(21, true)),
  RELEASE_ALL_LOCKS: awaitedFn('RELEASE_ALL_LOCKS', 0, 0, bigintType(21, true)),
};

/** Upper-case names of the functions above (the session looks for these calls). */
export const ASYNC_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(ASYNC_FUNCTIONS));
