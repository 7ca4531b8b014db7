/** The shape of a built-in function entry and helpers to declare entries tersely. */
import type { Expr } from '../../parse/ast.js';
import type { ColumnType, Value } from '../../../types/index.js';
import type { EvalContext, Evaluator, TypeInfo } from '../types.js';

/** What a lazily compiled function may ask of the expression compiler. */
export interface CompileHelper {
  compile(e: Expr): Evaluator;
  typeOf(e: Expr): TypeInfo;
}

export interface FunctionDef {
  readonly min: number;
  /** Infinity for variadic functions. */
  readonly max: number;
  /** Result type from the argument types (the argument AST is given for INTERVAL units etc.). */
  readonly type: (args: readonly TypeInfo[], exprs: readonly Expr[]) => ColumnType;
  /** Nullability of the result; default: not null when every argument is not null. */
  readonly notNull?: (args: readonly TypeInfo[]) => boolean;
  /** Eager functions: arguments evaluated left to right into a buffer reused across rows. */
  readonly call?: (args: readonly Value[], ctx: EvalContext) => Value;
  /** Lazy functions (IF, COALESCE, DATE_ADD with INTERVAL ...): build the evaluator from the AST. */
  readonly compile?: (args: readonly Expr[], c: CompileHelper) => Evaluator;
}

export type FunctionTable = Readonly<Record<string, FunctionDef>>;

type TypeFn = FunctionDef['type'];

export function fixed(t: ColumnType): TypeFn {
  return () => t;
}

/** Eager entry: NULL in any argument gives NULL without calling `body`. */
export function strictFn(min: number, max: number, type: TypeFn, body: (args: readonly Value[], ctx: EvalContext) => Value): FunctionDef {
  return {
    min,
    max,
    type,
    call: (args, ctx) => {
      for (let i = 0; i < args.length; i++) if (args[i] === null) return null;
      return body(args, ctx);
    },
  };
}

/** Eager entry that sees NULL arguments itself. */
export function nullableFn(min: number, max: number, type: TypeFn, body: (args: readonly Value[], ctx: EvalContext) => Value, notNull?: FunctionDef['notNull']): FunctionDef {
  return notNull === undefined ? { min, max, type, call: body } : { min, max, type, call: body, notNull };
}

export const always = (): boolean => true;
export const never = (): boolean => false;

/** Argument i, known to be non-null by `strictFn`. */
export function arg(args: readonly Value[], i: number): Exclude<Value, null> {
  return args[i] as Exclude<Value, null>;
}
