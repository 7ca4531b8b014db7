/** TiDB-style text of an expression for EXPLAIN operator info, e.g. `gt(test.t.k, 1)`. */
import type { Expr } from '../parse/index.js';
import { AGG_TABLE, POS_TABLE, type RowSchema } from './row-schema.js';
import { constText } from './expr-utils.js';

const OPS: Readonly<Record<string, string>> = {
  '=': 'eq', '<>': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '<=>': 'nulleq',
  '+': 'plus', '-': 'minus', '*': 'mul', '/': 'div', DIV: 'intdiv', '%': 'mod',
  AND: 'and', OR: 'or', XOR: 'xor', '&': 'bitand', '|': 'bitor', '^': 'bitxor', '<<': 'leftshift', '>>': 'rightshift',
};

export function exprText(e: Expr, schema: RowSchema): string {
  const t = (x: Expr): string => exprText(x, schema);
  switch (e.kind) {
    case 'literal':
    case 'param':
      return constText(e);
    case 'column':
      return columnText(e, schema);
    case 'binary':
      return `${OPS[e.op] ?? e.op}(${t(e.left)}, ${t(e.right)})`;
    case 'unary':
      return e.op === 'NOT' ? `not(${t(e.operand)})` : e.op === '-' ? `unaryminus(${t(e.operand)})` : t(e.operand);
    case 'isNull':
      return e.not ? `not(isnull(${t(e.expr)}))` : `isnull(${t(e.expr)})`;
    case 'between':
      return `${e.not ? 'not ' : ''}between(${t(e.expr)}, ${t(e.low)}, ${t(e.high)})`;
    case 'in':
      return `${e.not ? 'not ' : ''}in(${[e.expr, ...e.list].map(t).join(', ')})`;
    case 'like':
      return `${e.not ? 'not ' : ''}like(${t(e.expr)}, ${t(e.pattern)})`;
    case 'func':
      return `${e.name.toLowerCase()}(${e.args.map(t).join(', ')})`;
    case 'agg':
      return `${e.name.toLowerCase()}(${e.distinct ? 'distinct ' : ''}${e.arg === null ? '1' : t(e.arg)})`;
    case 'cast':
      return `cast(${t(e.expr)}, ${e.to.kind})`;
    default:
      return e.kind;
  }
}

function columnText(e: Extract<Expr, { kind: 'column' }>, schema: RowSchema): string {
  let i = -1;
  try {
    i = schema.indexOf(e);
  } catch {
    i = -1;
  }
  const c = schema.columns[i];
  if (c === undefined) return e.table === POS_TABLE ? `Column#${e.name}` : e.name;
  if (c.table === AGG_TABLE || c.table.startsWith('\u0000')) return `Column#${c.name}`;
  if (c.table === '') return c.name;
  return c.db === '' ? `${c.table}.${c.name}` : `${c.db}.${c.table}.${c.name}`;
}
