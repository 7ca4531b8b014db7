/**
 * Which collation a string comparison uses (MySQL's collation coercibility rules, simplified):
 * each operand derives a collation and a coercibility — 0 explicit `COLLATE`, 2 a column or a
 * CAST, 4 a literal or parameter (the connection's default utf8mb4_0900_ai_ci), 5 numbers and
 * other non-strings, 6 NULL — and the lowest coercibility wins. At equal coercibility with
 * different collations a binary one wins, then the utf8mb4 one over another charset; two
 * different explicit or column collations of the same charset are 1267 (Illegal mix).
 */
import type { Expr } from '../parse/ast.js';
import {
  BINARY_COLLATION, DEFAULT_COLLATION_INFO, isBinaryType, isStringType, typeCollation, type Collation, type ColumnType,
} from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { collateTarget } from './functions/collate.js';
import type { Scope } from './types.js';

export interface Derivation {
  readonly collation: Collation;
  readonly coercibility: number;
}

const EXPLICIT = 0;
const IMPLICIT = 2;
const COERCIBLE = 4;
const NUMERIC = 5;
const IGNORABLE = 6;

const COERCIBILITY_NAMES = ['EXPLICIT', 'NONE', 'IMPLICIT', 'SYSCONST', 'COERCIBLE', 'NUMERIC', 'IGNORABLE'];

const LITERAL: Derivation = { collation: DEFAULT_COLLATION_INFO, coercibility: COERCIBLE };
const NON_STRING: Derivation = { collation: BINARY_COLLATION, coercibility: NUMERIC };

/** The derivation of one expression's value. */
export function deriveCollation(e: Expr, scope: Scope): Derivation {
  switch (e.kind) {
    case 'literal':
      if (e.value === null) return { collation: BINARY_COLLATION, coercibility: IGNORABLE };
      if (typeof e.value === 'string') return LITERAL;
      return e.value instanceof Uint8Array ? { collation: BINARY_COLLATION, coercibility: COERCIBLE } : NON_STRING;
    case 'param':
    case 'variable':
    case 'subquery':
      return LITERAL;
    case 'column': {
      const b = scope.resolve(e);
      return b === undefined ? LITERAL : ofType(b.type, IMPLICIT);
    }
    case 'unary':
      return e.op === 'BINARY' ? { collation: BINARY_COLLATION, coercibility: IMPLICIT } : NON_STRING;
    case 'cast':
      return ofType(e.to, IMPLICIT);
    case 'func': {
      const target = collateTarget(e);
      if (target !== null) return { collation: target, coercibility: EXPLICIT };
      return strongest(e.args, scope, 'func');
    }
    case 'case':
      return strongest([...e.whens.map((w) => w.then), ...(e.else === undefined ? [] : [e.else])], scope, 'case');
    default:
      return NON_STRING;
  }
}

function ofType(t: ColumnType, coercibility: number): Derivation {
  if (isStringType(t)) return { collation: typeCollation(t), coercibility };
  if (isBinaryType(t)) return { collation: BINARY_COLLATION, coercibility };
  return NON_STRING;
}

/** A function's result: the strongest string argument's derivation (a literal's if none). */
function strongest(args: readonly Expr[], scope: Scope, op: string): Derivation {
  let out: Derivation | null = null;
  for (const a of args) {
    const d = deriveCollation(a, scope);
    if (d.coercibility >= NUMERIC) continue;
    out = out === null ? d : combine(out, d, op, false);
  }
  return out ?? LITERAL;
}

/**
 * The derivation two operands are compared under. `strict` raises 1267 for conflicting explicit
 * or column collations (comparisons); otherwise the left one is kept.
 */
export function combine(a: Derivation, b: Derivation, op: string, strict = true): Derivation {
  if (a.coercibility >= NUMERIC) return b.coercibility < a.coercibility ? b : a;
  if (b.coercibility >= NUMERIC) return a;
  if (a.collation === b.collation) return a.coercibility <= b.coercibility ? a : b;
  if (a.coercibility !== b.coercibility) return a.coercibility < b.coercibility ? a : b;
  if (a.collation.binary && a.collation.charset === 'binary') return a;
  if (b.collation.binary && b.collation.charset === 'binary') return b;
  if (a.collation.charset !== b.collation.charset) {
    if (a.collation.charset === 'utf8mb4') return a;
    if (b.collation.charset === 'utf8mb4') return b;
  }
  if (strict && a.coercibility <= IMPLICIT) {
    const name = (d: Derivation): string => COERCIBILITY_NAMES[d.coercibility] ?? 'NONE';
    throw SqlError.of('ER_CANT_AGGREGATE_2COLLATIONS', a.collation.name, name(a), b.collation.name, name(b), op);
  }
  return a;
}

/** The collation a comparison of `operands` (e.g. `x IN (a, b)`, `x BETWEEN a AND b`) uses. */
export function comparisonCollation(operands: readonly Expr[], scope: Scope, op: string): Collation {
  let out: Derivation | null = null;
  for (const e of operands) {
    const d = deriveCollation(e, scope);
    out = out === null ? d : combine(out, d, op);
  }
  return out?.collation ?? BINARY_COLLATION;
}
