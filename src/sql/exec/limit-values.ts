/** LIMIT / OFFSET values from literals or params (number, string or bigint). */
import { compileExpr, type Evaluator } from '../expr/index.js';
import { EMPTY_SCHEMA } from '../plan/index.js';
import type { Expr } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { ExecContext } from './context.js';

export type LimitEval = (ctx: ExecContext) => number;

export function compileLimit(e: Expr | null): LimitEval {
  if (e === null) return () => 0;
  const ev: Evaluator = compileExpr(e, EMPTY_SCHEMA, 'field list');
  return (ctx) => toCount(ev([], ctx));
}

function toCount(v: unknown): number {
  let n: number;
  if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'number') n = Math.trunc(v);
  else if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) n = Number(v);
  else throw SqlError.of('ER_WRONG_ARGUMENTS', 'LIMIT');
  if (n < 0 || !Number.isFinite(n)) throw SqlError.of('ER_WRONG_ARGUMENTS', 'LIMIT');
  return n;
}
