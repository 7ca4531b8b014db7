/** Shared plumbing of the JSON functions: argument kinds and a compile-time builder. */
import type { Expr } from '../../parse/ast.js';
import type { ColumnType, Value } from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import { makeType } from '../../../types/index.js';
import type { ArgKind, JsonPath } from '../json/index.js';
import type { EvalContext, Evaluator, TypeInfo } from '../types.js';
import { valueToString } from '../value-to-string.js';
import type { CompileHelper, FunctionDef } from './function-def.js';

export const JSON_TYPE: ColumnType = makeType('json');

const PREDICATE_OPS: ReadonlySet<string> = new Set(['=', '<=>', '<>', '<', '<=', '>', '>=', 'AND', 'OR', 'XOR']);
const PREDICATE_FUNCS: ReadonlySet<string> = new Set(['JSON_VALID', 'JSON_CONTAINS', 'JSON_CONTAINS_PATH', 'JSON_OVERLAPS', 'ISNULL', 'SHALE_MEMBER_OF']);

/** Expressions MySQL types as booleans (they become JSON true/false). */
export function isPredicate(e: Expr): boolean {
  switch (e.kind) {
    case 'isNull':
    case 'isBool':
    case 'between':
    case 'in':
    case 'like':
    case 'exists':
    case 'inSubquery':
      return true;
    case 'binary':
      return PREDICATE_OPS.has(e.op);
    case 'unary':
      return e.op === 'NOT';
    case 'func':
      return PREDICATE_FUNCS.has(e.name);
    default:
      return false;
  }
}

export function argKind(e: Expr, t: TypeInfo): ArgKind {
  return { json: t.type.kind === 'json', bool: isPredicate(e), type: t.type };
}

/** Per call site state handed to a JSON function body. */
export interface JsonCall {
  readonly kinds: readonly ArgKind[];
  /** Parsed paths by text, shared by the rows of one call site. */
  readonly paths: Map<string, JsonPath>;
}

type Body = (args: readonly Value[], call: JsonCall, ctx: EvalContext) => Value;

/**
 * A function whose body sees every argument value plus the arguments' static kinds (JSON or
 * not, predicate or not). NULL handling is up to the body.
 */
export function jsonFn(min: number, max: number, type: ColumnType | ((args: readonly TypeInfo[]) => ColumnType), body: Body, notNull?: FunctionDef['notNull']): FunctionDef {
  const def: FunctionDef = {
    min,
    max,
    type: typeof type === 'function' ? type : () => type,
    compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
      const kinds = args.map((a) => argKind(a, c.typeOf(a)));
      const evals = args.map((a) => c.compile(a));
      const call: JsonCall = { kinds, paths: new Map() };
      const buf: Value[] = new Array<Value>(evals.length).fill(null);
      return (row, ctx) => {
        for (let i = 0; i < evals.length; i++) buf[i] = (evals[i] as Evaluator)(row, ctx);
        return body(buf, call, ctx);
      };
    },
  };
  return notNull === undefined ? def : { ...def, notNull };
}

/** The kind of argument i. */
export function kindOf(call: JsonCall, i: number): ArgKind {
  return call.kinds[i] as ArgKind;
}

/** 'one' / 'all' (case-insensitive) else 3154 naming the function. */
export function oneOrAll(v: Value, fn: string): 'one' | 'all' | undefined {
  if (v === null) return undefined;
  const s = valueToString(v).toLowerCase();
  if (s !== 'one' && s !== 'all') throw SqlError.of('ER_JSON_BAD_ONE_OR_ALL_ARG', fn);
  return s;
}

