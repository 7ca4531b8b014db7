/**
 * Expression text as MySQL prints it inside messages such as
 * `BIGINT value is out of range in '(9223372036854775807 + 1)'`. Columns print with the
 * qualifiers written in the query (MySQL adds the resolved db and table).
 */
import type { Expr } from '../parse/ast.js';
import { formatColumnType } from '../../types/index.js';
import { valueToString } from './value-to-string.js';

function quoteIdent(s: string): string {
  return `\`${s.replace(/`/g, '``')}\``;
}

function literalText(v: Extract<Expr, { kind: 'literal' }>['value']): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.replace(/'/g, "\\'")}'`;
  return valueToString(v);
}

export function exprText(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return literalText(e.value);
    case 'param':
      return '?';
    case 'column':
      return [e.db, e.table, e.name].filter((p): p is string => p !== undefined).map(quoteIdent).join('.');
    case 'binary':
      return `(${exprText(e.left)} ${e.op === 'DIV' ? 'DIV' : e.op.toLowerCase()} ${exprText(e.right)})`;
    case 'unary':
      return e.op === 'NOT' ? `(not(${exprText(e.operand)}))` : `${e.op}(${exprText(e.operand)})`;
    case 'func':
      return `${e.name.toLowerCase()}(${e.args.map(exprText).join(',')})`;
    case 'agg':
      return `${e.name.toLowerCase()}(${e.distinct ? 'distinct ' : ''}${e.arg === null ? '*' : exprText(e.arg)})`;
    case 'cast':
      return `cast(${exprText(e.expr)} as ${formatColumnType(e.to)})`;
    case 'variable':
      return e.scope === 'user' ? `@${e.name}` : `@@${e.name}`;
    case 'interval':
      return `interval ${exprText(e.expr)} ${e.unit.toLowerCase()}`;
    default:
      return e.kind;
  }
}
