/**
 * Expr -> Evaluator, once per statement: columns are resolved to row offsets here, constant
 * facts (unsigned-ness, division scale, LIKE patterns, temporal literals) are fixed here, and
 * evaluation allocates nothing but its result (function arguments go into a per-call-site
 * buffer). `agg` nodes must have been replaced by the planner (ER_INVALID_GROUP_FUNC_USE).
 */
import type { BinaryOp, Expr, UnaryOp } from '../parse/ast.js';
import { DateTime, isTemporalType, type Collation, type Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { assertNever, utf8Encode } from '../../util/index.js';
import { add, divide, intDivide, modulo, multiply, negate, subtract, type ArithSite } from './arithmetic.js';
import { bitBinary, bitNot, type BitOp } from './bit-ops.js';
import { castValue } from './cast.js';
import { comparisonCollation } from './collation-derive.js';
import {
  andEval, betweenEval, caseEval, compareEval, inEval, inIntSetEval, isBoolEval, isNullEval, likeEval, notEval, orEval, rowEqualEval, xorEval,
  type CompareOp,
} from './compile-predicates.js';
import { exprText } from './expr-text.js';
import { checkedFunction } from './function-lookup.js';
import { compileIntervalArith } from './functions/date-add.js';
import type { CompileHelper } from './functions/function-def.js';
import { inferType } from './infer-type.js';
import { castToJsonEval, jsonCompareEval } from './json-compare.js';
import { enumCompareEval, isEnumOrSet, isNumericType, numericView } from './enum-set.js';
import { toDateTimeOf } from './temporal-convert.js';
import type { Evaluator, Scope, TypeInfo } from './types.js';
import { valueToString } from './value-to-string.js';

export function compileExpr(expr: Expr, scope: Scope, clause: string): Evaluator {
  return new Compiler(scope, clause).compile(expr);
}

const COMPARE_OPS: ReadonlySet<BinaryOp> = new Set(['=', '<=>', '<>', '<', '<=', '>', '>=']);
const BIT_OPS: ReadonlySet<BinaryOp> = new Set(['&', '|', '^', '<<', '>>']);

class Compiler implements CompileHelper {
  constructor(
    private readonly scope: Scope,
    private readonly clause: string,
  ) {}

  typeOf(e: Expr): TypeInfo {
    return inferType(e, this.scope);
  }

  compile(e: Expr): Evaluator {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        return () => v;
      }
      case 'param': {
        const i = e.index;
        return (_row, ctx) => ctx.params[i] ?? null;
      }
      case 'column':
        return this.column(e);
      case 'binary':
        return this.binary(e);
      case 'unary':
        return this.unary(e.op, e.operand, e);
      case 'isNull':
        return isNullEval(this.compile(e.expr), e.not);
      case 'isBool':
        return isBoolEval(this.compile(e.expr), e.value, e.not);
      case 'between':
        return betweenEval(this.compile(e.expr), this.compile(e.low), this.compile(e.high), e.not, this.collation([e.expr, e.low, e.high], 'between'));
      case 'in':
        return this.inList(e);
      case 'like':
        return likeEval(
          this.compile(e.expr), this.compile(e.pattern), e.escape === undefined ? null : this.compile(e.escape), e.not,
          this.collation([e.expr, e.pattern], 'like'),
        );
      case 'func':
        return this.func(e.name, e.args);
      case 'case':
        return caseEval(
          e.operand === undefined ? null : this.compile(e.operand),
          e.whens.map((w) => ({ when: this.compile(w.when), then: this.compile(w.then) })),
          e.else === undefined ? null : this.compile(e.else),
          e.operand === undefined ? undefined : this.collation([e.operand, ...e.whens.map((w) => w.when)], 'case'),
        );
      case 'cast': {
        const to = e.to;
        const inner = isNumericType(to) ? numericView(this.compile(e.expr), this.safeType(e.expr)) : this.compile(e.expr);
        if (to.kind === 'json') return castToJsonEval(inner, e.expr, this.safeType(e.expr));
        return (row, ctx) => castValue(inner(row, ctx), to, ctx);
      }
      case 'variable': {
        const { scope, name } = e;
        return (_row, ctx) => ctx.getVariable(scope, name);
      }
      case 'agg':
        throw SqlError.of('ER_INVALID_GROUP_FUNC_USE');
      case 'window':
        throw SqlError.of('ER_WINDOW_INVALID_WINDOW_FUNC_USE', e.name.toLowerCase());
      case 'row':
        throw SqlError.of('ER_OPERAND_COLUMNS', 1);
      case 'interval':
        throw SqlError.of('ER_NOT_SUPPORTED_YET', 'INTERVAL outside DATE_ADD/DATE_SUB/+/-');
      case 'default':
        throw SqlError.of('ER_NOT_SUPPORTED_YET', 'DEFAULT in this context');
      case 'valuesRef':
        throw SqlError.of('ER_NOT_SUPPORTED_YET', 'VALUES() in this context');
      case 'subquery':
      case 'exists':
      case 'inSubquery':
        throw SqlError.of('ER_NOT_SUPPORTED_YET', 'subqueries in expressions');
      default:
        return assertNever(e, 'expression');
    }
  }

  private column(ref: Extract<Expr, { kind: 'column' }>): Evaluator {
    const b = this.scope.resolve(ref);
    if (b === undefined) {
      const name = [ref.db, ref.table, ref.name].filter((p) => p !== undefined).join('.');
      throw SqlError.of('ER_BAD_FIELD_ERROR', name, this.clause);
    }
    const offset = b.offset;
    return (row) => row[offset] ?? null;
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>): Evaluator {
    const { op, left, right } = e;
    if ((op === '+' || op === '-') && right.kind === 'interval') {
      return compileIntervalArith(this.compile(left), this.compile(right.expr), right.unit, op === '+' ? 1 : -1, this.typeOf(left).type);
    }
    if (op === '+' && left.kind === 'interval') {
      return compileIntervalArith(this.compile(right), this.compile(left.expr), left.unit, 1, this.typeOf(right).type);
    }
    if (COMPARE_OPS.has(op)) return this.comparison(op as CompareOp, left, right);
    if (left.kind === 'row' || right.kind === 'row') throw SqlError.of('ER_OPERAND_COLUMNS', 1);
    const l = numericView(this.compile(left), this.safeType(left));
    const r = numericView(this.compile(right), this.safeType(right));
    switch (op) {
      case 'AND':
        return andEval(l, r);
      case 'OR':
        return orEval(l, r);
      case 'XOR':
        return xorEval(l, r);
      default:
        break;
    }
    if (BIT_OPS.has(op)) {
      const bop = op as BitOp;
      return (row, ctx) => bitBinary(bop, l(row, ctx), r(row, ctx));
    }
    return this.arithmetic(e, l, r);
  }

  private arithmetic(e: Extract<Expr, { kind: 'binary' }>, l: Evaluator, r: Evaluator): Evaluator {
    const site = this.site(e, [e.left, e.right]);
    switch (e.op) {
      case '+':
        return (row, ctx) => add(l(row, ctx), r(row, ctx), site);
      case '-':
        return (row, ctx) => subtract(l(row, ctx), r(row, ctx), site);
      case '*':
        return (row, ctx) => multiply(l(row, ctx), r(row, ctx), site);
      case '/':
        return (row, ctx) => divide(l(row, ctx), r(row, ctx), site, ctx);
      case 'DIV':
        return (row, ctx) => intDivide(l(row, ctx), r(row, ctx), site, ctx);
      case '%':
        return (row, ctx) => modulo(l(row, ctx), r(row, ctx), site, ctx);
      default:
        throw SqlError.of('ER_NOT_SUPPORTED_YET', `operator ${e.op}`);
    }
  }

  /** Compile-time facts of an arithmetic node; operand types that cannot be inferred count as signed. */
  private site(e: Expr, operands: readonly Expr[]): ArithSite {
    const types = operands.map((o) => this.safeType(o));
    const left = types[0];
    let divScale = -1;
    if (left !== undefined && left.kind !== 'varchar') divScale = left.kind === 'decimal' ? Math.min(30, left.scale + 4) : 4;
    if (operands[0]?.kind === 'param') divScale = -1;
    return { text: exprText(e), unsigned: types.some((t) => t?.unsigned === true), divScale };
  }

  private safeType(e: Expr): TypeInfo['type'] | undefined {
    try {
      return this.typeOf(e).type;
    } catch {
      return undefined;
    }
  }

  private comparison(op: CompareOp, left: Expr, right: Expr): Evaluator {
    if (left.kind === 'row' || right.kind === 'row') {
      if (left.kind !== 'row' || right.kind !== 'row' || left.items.length !== right.items.length) {
        throw SqlError.of('ER_OPERAND_COLUMNS', left.kind === 'row' ? left.items.length : 1);
      }
      if (op !== '=' && op !== '<>' && op !== '<=>') throw SqlError.of('ER_NOT_SUPPORTED_YET', `row comparison with ${op}`);
      return rowEqualEval(op, left.items.map((x) => this.compile(x)), right.items.map((x) => this.compile(x)), this.pairCollations(left.items, right.items, op));
    }
    const lt = this.safeType(left);
    const rt = this.safeType(right);
    if ((lt !== undefined && isEnumOrSet(lt)) || (rt !== undefined && isEnumOrSet(rt))) {
      return enumCompareEval(op, this.compile(left), this.compile(right), lt, rt, this.collation([left, right], op));
    }
    if (lt?.kind === 'json' || rt?.kind === 'json') {
      const json = jsonCompareEval(op, left, right, this.typeOf(left), this.typeOf(right), this.compile(left), this.compile(right));
      if (json !== null) return json;
    }
    return compareEval(op, this.operand(left, right), this.operand(right, left), this.collation([left, right], op));
  }

  /** The collation strings among `operands` compare under (1267 on an illegal mix). */
  private collation(operands: readonly Expr[], op: string): Collation {
    return comparisonCollation(operands, this.scope, op);
  }

  private pairCollations(ls: readonly Expr[], rs: readonly Expr[], op: string): Collation[] {
    return ls.map((l, i) => this.collation([l, rs[i] as Expr], op));
  }

  /** A string literal compared with a temporal expression is parsed once here. */
  private operand(e: Expr, other: Expr): Evaluator {
    if (e.kind === 'literal' && typeof e.value === 'string') {
      const t = this.safeType(other);
      if (t !== undefined && isTemporalType(t) && t.kind !== 'time') {
        const dt = toDateTimeOf(e.value, 'datetime', 6, () => ZERO_DATE);
        if (dt !== null) return () => dt;
      }
    }
    return this.compile(e);
  }

  private inList(e: Extract<Expr, { kind: 'in' }>): Evaluator {
    if (e.expr.kind === 'row') {
      const probe = e.expr.items;
      const alts = e.list.map((item) => {
        if (item.kind !== 'row' || item.items.length !== probe.length) throw SqlError.of('ER_OPERAND_COLUMNS', probe.length);
        return rowEqualEval('=', probe.map((x) => this.compile(x)), item.items.map((x) => this.compile(x)), this.pairCollations(probe, item.items, 'in'));
      });
      return inEval(() => 1n, alts, e.not);
    }
    const x = this.compile(e.expr);
    const list = e.list.map((i) => this.compile(i));
    const general = inEval(x, list, e.not, this.collation([e.expr, ...e.list], 'in'));
    const ints = e.list.map((i) => (i.kind === 'literal' && typeof i.value === 'bigint' ? i.value : null));
    if (ints.every((v): v is bigint => v !== null) && ints.length > 3) return inIntSetEval(x, ints, general, e.not);
    return general;
  }

  private unary(op: UnaryOp, operand: Expr, e: Expr): Evaluator {
    const x = this.compile(operand);
    switch (op) {
      case '-': {
        const site = this.site(e, [operand]);
        return (row, ctx) => negate(x(row, ctx), site);
      }
      case '+':
        return x;
      case 'NOT':
        return notEval(x);
      case '~':
        return (row, ctx) => bitNot(x(row, ctx));
      case 'BINARY':
        return (row, ctx) => toBinary(x(row, ctx));
      default:
        return assertNever(op, 'unary operator');
    }
  }

  private func(name: string, args: readonly Expr[]): Evaluator {
    const def = checkedFunction(name, args.length, this.scope.currentDatabase);
    if (def.compile !== undefined) return def.compile(args, this);
    const call = def.call;
    if (call === undefined) throw SqlError.of('ER_NOT_SUPPORTED_YET', name);
    const evals = args.map((a) => this.compile(a));
    const buf: Value[] = new Array<Value>(evals.length).fill(null);
    return (row, ctx) => {
      for (let i = 0; i < evals.length; i++) buf[i] = (evals[i] as Evaluator)(row, ctx);
      return call(buf, ctx);
    };
  }
}

function toBinary(v: Value): Value {
  if (v === null || v instanceof Uint8Array) return v;
  return utf8Encode(valueToString(v));
}

const ZERO_DATE = new DateTime('date', 0, 0, 0);
