/**
 * The result type of an expression (result-set metadata, binary-protocol encoding, and the
 * compile-time facts arithmetic needs). Integer literals are BIGINT with their digit count as
 * length (`SELECT 1` -> LONGLONG length 1); comparisons and logic are BIGINT(1).
 */
import type { BinaryOp, Expr } from '../parse/ast.js';
import {
  DateTime, Decimal, Duration, isIntegerType, isTemporalType, type ColumnType, type Value,
} from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { assertNever } from '../../util/index.js';
import { aggregateType } from './aggregate-type.js';
import { intervalResultType } from './functions/date-add.js';
import { checkedFunction } from './function-lookup.js';
import { mergeTypes } from './merge-types.js';
import {
  bigintType, dateType, datetimeType, decimalType, displayLength, doubleType, integerDigits, nullType, timeType, varbinaryType, varcharType,
} from './result-types.js';
import { systemVariableType } from './system-var-types.js';
import { windowFuncType } from './window-type.js';
import { INT64_MAX } from './to-number.js';
import type { Scope, TypeInfo } from './types.js';

const BOOL: ColumnType = bigintType(1);

/** `params`, when given, types `?` by the value bound to it (the statement cache lifts literals). */
export function inferType(expr: Expr, scope: Scope, params?: readonly Value[]): TypeInfo {
  return new TypeInferrer(scope, params).infer(expr);
}

export function literalType(v: Value): ColumnType {
  if (v === null) return nullType();
  if (typeof v === 'bigint') return bigintType(v.toString().length, v > INT64_MAX);
  if (typeof v === 'number') return doubleType();
  if (typeof v === 'string') return varcharType(Array.from(v).length);
  if (v instanceof Uint8Array) return varbinaryType(v.length);
  if (v instanceof Decimal) {
    const scale = v.decimalPlaces();
    const intDigits = v.abs().truncated().toFixed(0).replace(/^0$/, '').length;
    return decimalType(Math.max(1, intDigits + scale), scale);
  }
  if (v instanceof DateTime) return v.kind === 'date' ? dateType() : datetimeType(v.fsp);
  if (v instanceof Duration) return timeType(v.fsp);
  return varcharType(0);
}

function isExact(t: ColumnType): boolean {
  return isIntegerType(t) || t.kind === 'decimal' || (isTemporalType(t) && t.scale === 0);
}

/** Integer digits and scale of an exact operand seen as DECIMAL. */
function decimalShape(t: ColumnType): { int: number; scale: number } {
  if (t.kind === 'decimal') return { int: t.length - t.scale, scale: t.scale };
  if (isIntegerType(t)) return { int: t.kind === 'bigint' && t.length > 0 ? t.length : integerDigits(t), scale: 0 };
  return { int: 14, scale: t.scale };
}

/** Result type of an arithmetic operator on two operand types. */
export function arithmeticType(op: BinaryOp, l: ColumnType, r: ColumnType): ColumnType {
  if (op === 'DIV') return bigintType(21, l.unsigned || r.unsigned);
  if (!isExact(l) || !isExact(r)) return doubleType();
  const bothInt = isIntegerType(l) && isIntegerType(r);
  if (bothInt && op !== '/') {
    const len = op === '*' ? displayLength(l) + displayLength(r) : Math.max(displayLength(l), displayLength(r)) + 1;
    return bigintType(Math.min(21, len), l.unsigned || r.unsigned);
  }
  const a = decimalShape(l);
  const b = decimalShape(r);
  switch (op) {
    case '*':
      return decimalType(a.int + b.int + a.scale + b.scale, a.scale + b.scale);
    case '/': {
      const scale = Math.min(30, a.scale + 4);
      return decimalType(a.int + b.scale + scale, scale);
    }
    default: {
      const scale = Math.max(a.scale, b.scale);
      return decimalType(Math.max(a.int, b.int) + 1 + scale, scale);
    }
  }
}

const ARITH: ReadonlySet<BinaryOp> = new Set(['+', '-', '*', '/', 'DIV', '%']);
const BITS: ReadonlySet<BinaryOp> = new Set(['&', '|', '^', '<<', '>>']);

class TypeInferrer {
  constructor(
    private readonly scope: Scope,
    private readonly params: readonly Value[] | undefined,
  ) {}

  infer(e: Expr): TypeInfo {
    switch (e.kind) {
      case 'literal':
        return { type: literalType(e.value), notNull: e.value !== null };
      case 'param': {
        const v = this.params?.[e.index];
        return v === undefined ? { type: varcharType(255), notNull: false } : { type: literalType(v), notNull: v !== null };
      }
      case 'column':
        return this.column(e);
      case 'binary':
        return this.binary(e.op, e.left, e.right);
      case 'unary':
        return this.unary(e.op, e.operand);
      case 'isNull':
      case 'isBool':
        return { type: BOOL, notNull: true };
      case 'between':
        return this.bool([e.expr, e.low, e.high]);
      case 'in':
        return this.bool([e.expr, ...e.list]);
      case 'like':
        return this.bool([e.expr, e.pattern]);
      case 'func':
        return this.func(e.name, e.args);
      case 'agg':
        return this.agg(e);
      case 'case':
        return this.caseType(e);
      case 'cast':
        return { type: e.to, notNull: this.infer(e.expr).notNull && !isTemporalType(e.to) };
      case 'variable':
        return { type: systemVariableType(e.scope, e.name), notNull: false };
      case 'default':
        return e.column === undefined ? { type: nullType(), notNull: false } : this.column({ name: e.column });
      case 'valuesRef':
        return { ...this.column({ name: e.column }), notNull: false };
      case 'row':
        throw SqlError.of('ER_OPERAND_COLUMNS', 1);
      case 'interval':
        return this.infer(e.expr);
      case 'exists':
      case 'inSubquery':
        return { type: BOOL, notNull: false };
      case 'subquery':
        return { type: varcharType(255), notNull: false };
      case 'window':
        // An unbound `?` (LAG's default) takes its type from the other arguments.
        return windowFuncType(e.name, e.args.map((a) => (a.kind === 'param' && this.params?.[a.index] === undefined ? undefined : this.infer(a))));
      default:
        return assertNever(e, 'expression');
    }
  }

  private column(ref: { readonly db?: string; readonly table?: string; readonly name: string }): TypeInfo {
    const b = this.scope.resolve(ref);
    if (b === undefined) {
      const name = [ref.db, ref.table, ref.name].filter((p) => p !== undefined).join('.');
      throw SqlError.of('ER_BAD_FIELD_ERROR', name, 'field list');
    }
    return { type: b.type, notNull: b.notNull };
  }

  private bool(operands: readonly Expr[]): TypeInfo {
    return { type: BOOL, notNull: operands.every((o) => this.infer(o).notNull) };
  }

  private binary(op: BinaryOp, left: Expr, right: Expr): TypeInfo {
    if ((op === '+' || op === '-') && right.kind === 'interval') {
      const l = this.infer(left);
      return { type: intervalResultType(l.type, right.unit), notNull: false };
    }
    if (op === '+' && left.kind === 'interval') return this.binary(op, right, left);
    const l = this.infer(left);
    const r = this.infer(right);
    const notNull = l.notNull && r.notNull;
    if (ARITH.has(op)) {
      const mayBeNull = op === '/' || op === 'DIV' || op === '%';
      return { type: arithmeticType(op, l.type, r.type), notNull: notNull && !mayBeNull };
    }
    if (BITS.has(op)) return { type: bigintType(21, true), notNull };
    return { type: BOOL, notNull: op === '<=>' ? true : notNull };
  }

  private unary(op: string, operand: Expr): TypeInfo {
    const t = this.infer(operand);
    switch (op) {
      case '-':
        if (isIntegerType(t.type)) return { type: bigintType(Math.min(21, displayLength(t.type) + 1)), notNull: t.notNull };
        return { type: t.type.kind === 'decimal' ? t.type : doubleType(), notNull: t.notNull };
      case '+':
        return t;
      case '~':
        return { type: bigintType(21, true), notNull: t.notNull };
      case 'BINARY':
        return { type: varbinaryType(displayLength(t.type)), notNull: t.notNull };
      default:
        return { type: BOOL, notNull: t.notNull };
    }
  }

  private func(name: string, args: readonly Expr[]): TypeInfo {
    const def = checkedFunction(name, args.length, undefined);
    const argTypes = args.map((a) => (a.kind === 'interval' || name === 'TIMESTAMPDIFF' && a === args[0] ? { type: bigintType(), notNull: true } : this.infer(a)));
    const notNull = def.notNull?.(argTypes) ?? argTypes.every((a) => a.notNull);
    return { type: def.type(argTypes, args), notNull };
  }

  private agg(e: Extract<Expr, { kind: 'agg' }>): TypeInfo {
    const arg = e.arg === null ? { type: bigintType(1), notNull: true } : this.infer(e.arg);
    const alwaysValue = e.name === 'COUNT' || e.name.startsWith('BIT_');
    return { type: aggregateType(e.name, arg.type), notNull: alwaysValue };
  }

  private caseType(e: Extract<Expr, { kind: 'case' }>): TypeInfo {
    const branches = e.whens.map((w) => this.infer(w.then));
    if (e.else !== undefined) branches.push(this.infer(e.else));
    const type = mergeTypes(branches.map((b) => b.type));
    return { type, notNull: e.else !== undefined && branches.every((b) => b.notNull) };
  }
}

