/**
 * `expr COLLATE name`, which the parser turns into the call `COLLATE(expr, 'name')`: the value
 * unchanged, its type's collation replaced (and the comparison's collation fixed, see
 * collation-derive.ts). Unknown names are 1273; a collation of another charset than the
 * operand's (utf8mb4 for strings, binary for byte strings) is 1253.
 */
import type { Expr } from '../../parse/ast.js';
import {
  BINARY_COLLATION, DEFAULT_COLLATION_INFO, findCollation, isBinaryType, isStringType, typeCollation, type Collation, type ColumnType,
} from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import type { FunctionDef, FunctionTable } from './function-def.js';
import { bigintType, varcharType } from '../result-types.js';
import { valueToString } from '../value-to-string.js';

export const COLLATE_FUNCTION = 'COLLATE';

/** The collation a `COLLATE(expr, 'name')` call names (1273 if unknown); null for other nodes. */
export function collateTarget(e: Expr): Collation | null {
  if (e.kind !== 'func' || e.name !== COLLATE_FUNCTION) return null;
  const arg = e.args[1];
  const name = arg?.kind === 'literal' && typeof arg.value === 'string' ? arg.value : '';
  const c = findCollation(name);
  if (c === undefined) throw SqlError.of('ER_UNKNOWN_COLLATION', name);
  return c;
}

const COLLATE: FunctionDef = {
  min: 2,
  max: 2,
  type: (args, exprs) => {
    const target = collateTarget({ kind: 'func', name: COLLATE_FUNCTION, args: exprs });
    const t = args[0]?.type ?? varcharType(0);
    const charset = isBinaryType(t) ? 'binary' : 'utf8mb4';
    if (target === null || target.charset !== charset) {
      throw SqlError.of('ER_COLLATION_CHARSET_MISMATCH', target?.name ?? '', charset);
    }
    if (charset === 'binary') return t;
    const base = t.kind === 'char' || t.kind === 'varchar' || t.kind === 'text' ? t : varcharType(Math.max(0, t.length));
    return { ...base, collation: target.name };
  },
  compile: (args, c) => {
    const target = collateTarget({ kind: 'func', name: COLLATE_FUNCTION, args });
    const charset = isBinaryType(c.typeOf(args[0] as Expr).type) ? 'binary' : 'utf8mb4';
    if (target === null || target.charset !== charset) throw SqlError.of('ER_COLLATION_CHARSET_MISMATCH', target?.name ?? '', charset);
    return c.compile(args[0] as Expr);
  },
};

/** The collation of a string function's arguments from their types: a binary one wins, else the first string's. */
function argsCollation(types: readonly ColumnType[]): Collation {
  if (types.some(isBinaryType)) return BINARY_COLLATION;
  const colls = types.filter(isStringType).map(typeCollation);
  return colls.find((c) => c.binary) ?? colls[0] ?? DEFAULT_COLLATION_INFO;
}

/** STRCMP(a, b): -1, 0 or 1 under the arguments' collation (STRCMP('a', 'A') = 0 under _ci). */
const STRCMP: FunctionDef = {
  min: 2,
  max: 2,
  type: () => bigintType(2),
  compile: (args, c) => {
    const coll = argsCollation(args.map((a) => c.typeOf(a).type));
    const [a, b] = args.map((x) => c.compile(x)) as [ReturnType<typeof c.compile>, ReturnType<typeof c.compile>];
    return (row, ctx) => {
      const x = a(row, ctx);
      const y = b(row, ctx);
      if (x === null || y === null) return null;
      return BigInt(Math.sign(coll.compare(valueToString(x), valueToString(y))));
    };
  },
};

export const COLLATE_FUNCTIONS: FunctionTable = { [COLLATE_FUNCTION]: COLLATE, STRCMP };
