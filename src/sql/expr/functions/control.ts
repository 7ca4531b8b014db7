/** Control-flow functions: IF, IFNULL, NULLIF, COALESCE, GREATEST, LEAST, ISNULL. */
import type { Value } from '../../../types/index.js';
import { compareValues, truthy } from '../compare.js';
import { mergeTypes } from '../merge-types.js';
import { bigintType } from '../result-types.js';
import type { Evaluator } from '../types.js';
import { always, fixed, nullableFn, type FunctionDef, type FunctionTable } from './function-def.js';

const ifFn: FunctionDef = {
  min: 3,
  max: 3,
  type: (args) => mergeTypes([args[1]?.type, args[2]?.type].filter((t) => t !== undefined)),
  notNull: (args) => (args[1]?.notNull ?? false) && (args[2]?.notNull ?? false),
  compile: (args, c) => {
    const [cond, a, b] = args.map((e) => c.compile(e)) as [Evaluator, Evaluator, Evaluator];
    return (row, ctx) => (truthy(cond(row, ctx)) === true ? a(row, ctx) : b(row, ctx));
  },
};

const coalesce: FunctionDef = {
  min: 1,
  max: Infinity,
  type: (args) => mergeTypes(args.map((a) => a.type)),
  notNull: (args) => args.some((a) => a.notNull),
  compile: (args, c) => {
    const evals = args.map((e) => c.compile(e));
    return (row, ctx) => {
      for (const ev of evals) {
        const v = ev(row, ctx);
        if (v !== null) return v;
      }
      return null;
    };
  },
};

const nullif: FunctionDef = nullableFn(
  2,
  2,
  (args) => args[0]?.type ?? bigintType(),
  (args) => {
    const a = args[0] ?? null;
    return compareValues(a, args[1] ?? null) === 0 ? null : a;
  },
  () => false,
);

/** GREATEST/LEAST: NULL if any argument is NULL; otherwise the extreme by MySQL comparison. */
function extreme(wantGreater: boolean): FunctionDef {
  return {
    min: 2,
    max: Infinity,
    type: (args) => mergeTypes(args.map((a) => a.type)),
    call: (args) => {
      let best: Value = null;
      for (let i = 0; i < args.length; i++) {
        const v = args[i] ?? null;
        if (v === null) return null;
        if (i === 0) best = v;
        else {
          const c = compareValues(v, best) as number;
          if (wantGreater ? c > 0 : c < 0) best = v;
        }
      }
      return best;
    },
  };
}

export const CONTROL_FUNCTIONS: FunctionTable = {
  IF: ifFn,
  IFNULL: { ...coalesce, min: 2, max: 2 },
  COALESCE: coalesce,
  NULLIF: nullif,
  GREATEST: extreme(true),
  LEAST: extreme(false),
  ISNULL: nullableFn(1, 1, fixed(bigintType(1)), (args) => (args[0] === null ? 1n : 0n), always),
};
