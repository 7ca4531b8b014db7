/**
 * Collation clauses in expressions as node-sql-parser reports them: `expr COLLATE name`
 * (`node.collate`, or `node.suffix.collate` on string literals) becomes the call
 * `COLLATE(expr, 'name')` (see sql/expr/functions/collate.ts); a literal's `binary` prefix
 * (`BINARY 'x'`) becomes the unary BINARY operator.
 */
import type { Expr } from './ast.js';
import { obj, str, type Obj } from './guards.js';

export function withCollate(node: Obj, e: Expr): Expr {
  const out: Expr = node['prefix'] === 'binary' ? { kind: 'unary', op: 'BINARY', operand: e } : e;
  const suffix = obj(node, 'suffix');
  const clause = obj(node, 'collate') ?? (suffix ? obj(suffix, 'collate') : undefined);
  const named = clause ? obj(clause, 'collate') : undefined;
  const name = named ? str(named, 'name') : undefined;
  if (name === undefined) return out;
  return { kind: 'func', name: 'COLLATE', args: [out, { kind: 'literal', value: name }] };
}
