/** Information functions: DATABASE(), VERSION(), USER(), CONNECTION_ID(), LAST_INSERT_ID() ... */
import { bigintType, varcharType } from '../result-types.js';
import { toBigInt } from '../to-number.js';
import { valueToString } from '../value-to-string.js';
import { always, fixed, nullableFn, type FunctionDef, type FunctionTable } from './function-def.js';

const database: FunctionDef = nullableFn(0, 0, fixed(varcharType(64)), (_a, ctx) => ctx.currentDatabase(), () => false);
const user: FunctionDef = nullableFn(0, 0, fixed(varcharType(288)), (_a, ctx) => ctx.currentUser(), always);

/**
 * LAST_INSERT_ID() returns the session's value; LAST_INSERT_ID(expr) returns expr as BIGINT
 * UNSIGNED and makes it the value later LAST_INSERT_ID() calls return (MySQL: also in the same
 * statement; a NULL expr leaves the value alone).
 */
const lastInsertId: FunctionDef = nullableFn(
  0,
  1,
  fixed(bigintType(21, true)),
  (args, ctx) => {
    if (args.length === 0) return ctx.lastInsertId();
    const v = toBigInt(args[0] ?? null);
    if (v !== null) ctx.setLastInsertId?.(BigInt.asUintN(64, v));
    return v === null ? null : BigInt.asUintN(64, v);
  },
  (args) => args.length === 0 || (args[0]?.notNull ?? false),
);

export const INFO_FUNCTIONS: FunctionTable = {
  DATABASE: database,
  SCHEMA: database,
  VERSION: nullableFn(0, 0, fixed(varcharType(64)), (_a, ctx) => valueToString(ctx.getVariable('default', 'version')), always),
  USER: user,
  SESSION_USER: user,
  SYSTEM_USER: user,
  CONNECTION_ID: nullableFn(0, 0, fixed(bigintType(21, true)), (_a, ctx) => BigInt(ctx.connectionId()), always),
  LAST_INSERT_ID: lastInsertId,
  ROW_COUNT: nullableFn(0, 0, fixed(bigintType(21)), (_a, ctx) => ctx.rowCount(), always),
  FOUND_ROWS: nullableFn(0, 0, fixed(bigintType(21)), (_a, ctx) => ctx.foundRows(), always),
};
