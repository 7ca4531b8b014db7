/**
 * CHECK constraint enforcement: each enforced constraint's stored expression text is parsed
 * and compiled once per table definition; a row violates it when the expression is FALSE
 * (NULL passes, as in MySQL): 3819 "Check constraint 't_chk_1' is violated.".
 */
import type { CheckInfo, TableInfo } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { compileExpr, truthy, type EvalContext, type Evaluator } from '../expr/index.js';
import { parseExpression } from '../parse/index.js';
import { tableSchema } from '../plan/index.js';

export type RowCheck = (row: readonly Value[], ctx: EvalContext) => void;

const cache = new WeakMap<TableInfo, RowCheck | null>();

/** The checker of the table's enforced constraints (or of `only`), null when there is none. */
export function compileChecks(table: TableInfo, only?: readonly CheckInfo[]): RowCheck | null {
  if (only === undefined && cache.has(table)) return cache.get(table) ?? null;
  const checks = (only ?? table.checks ?? []).filter((c) => c.enforced);
  const compiled = checks.map((c) => ({ name: c.name, eval: compileCheck(table, c) }));
  const check: RowCheck | null = compiled.length === 0 ? null : (row, ctx) => {
    for (const c of compiled) {
      if (truthy(c.eval(row as Value[], ctx)) === false) throw SqlError.of('ER_CHECK_CONSTRAINT_VIOLATED', c.name);
    }
  };
  if (only === undefined && Object.isFrozen(table)) cache.set(table, check);
  return check;
}

function compileCheck(table: TableInfo, c: CheckInfo): Evaluator {
  return compileExpr(parseExpression(c.expr), tableSchema(table, table.name), 'check constraint');
}
