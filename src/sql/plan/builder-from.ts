/**
 * FROM clause: no table (one empty row), one table (fast path / access path chosen once the
 * WHERE conjuncts are known), or a join tree (INNER / LEFT / CROSS; WHERE conjuncts that name
 * only one table not on the NULL-extended side of a LEFT JOIN are pushed down to its reader).
 */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { Expr, FromItem } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { PlanNode } from './nodes.js';
import { EMPTY_SCHEMA, RowSchema, tableSchema } from './row-schema.js';
import { buildTableSource, withSelection } from './builder-source.js';
import { resolveTable } from './resolve-table.js';
import { rejectSubqueries, someExpr, splitConjunction } from './expr-utils.js';

export interface FromSource {
  readonly schema: RowSchema;
  build(conds: readonly Expr[], needed: readonly number[], lock: boolean, fastPath: boolean): PlanNode;
}

export function buildFrom(from: FromItem | null, schema: Schema, currentDb: string | null): FromSource {
  if (from === null) {
    return {
      schema: EMPTY_SCHEMA,
      build: (conds) => withSelection({ kind: 'dual', schema: EMPTY_SCHEMA, rows: 1 }, conds, 'where clause'),
    };
  }
  if (from.kind === 'table') {
    const table = resolveTable(schema, currentDb, from.table);
    const alias = from.alias ?? table.name;
    return {
      schema: tableSchema(table, alias),
      build: (conds, needed, lock, fastPath) => buildTableSource({ table, alias, conds, needed, lock, fastPath }),
    };
  }
  const tree = joinTree(from, schema, currentDb, new Set());
  return { schema: tree.schema, build: (conds, _needed, lock) => buildJoin(tree, conds, lock) };
}

type JoinTree =
  | { readonly kind: 'leaf'; readonly table: TableInfo; readonly alias: string; readonly schema: RowSchema }
  | { readonly kind: 'join'; readonly joinType: 'inner' | 'left' | 'cross'; readonly left: JoinTree; readonly right: JoinTree; readonly on: Expr[]; readonly schema: RowSchema };

function joinTree(f: FromItem, schema: Schema, db: string | null, aliases: Set<string>): JoinTree {
  if (f.kind === 'derived') throw SqlError.of('ER_NOT_SUPPORTED_YET', 'derived tables');
  if (f.kind === 'table') {
    const table = resolveTable(schema, db, f.table);
    const alias = f.alias ?? table.name;
    if (aliases.has(alias)) throw SqlError.of('ER_NONUNIQ_TABLE', alias);
    aliases.add(alias);
    return { kind: 'leaf', table, alias, schema: tableSchema(table, alias) };
  }
  if (f.joinType === 'right') throw SqlError.of('ER_NOT_SUPPORTED_YET', 'RIGHT JOIN');
  const left = joinTree(f.left, schema, db, aliases);
  const right = joinTree(f.right, schema, db, aliases);
  const on = splitConjunction(f.on);
  for (const name of f.using ?? []) {
    on.push({ kind: 'binary', op: '=', left: usingRef(left, name), right: usingRef(right, name) });
  }
  on.forEach(rejectSubqueries);
  return { kind: 'join', joinType: f.joinType, left, right, on, schema: left.schema.concat(right.schema) };
}

function usingRef(t: JoinTree, name: string): Expr {
  const i = t.schema.indexOf({ name });
  const c = t.schema.columns[i];
  if (c === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', name, 'from clause');
  return { kind: 'column', table: c.table, name: c.name };
}

function buildJoin(tree: JoinTree, conds: readonly Expr[], lock: boolean): PlanNode {
  const rest: Expr[] = [];
  const pushed = new Map<string, Expr[]>();
  for (const c of conds) {
    const leaf = pushTarget(tree, c);
    if (leaf === null) rest.push(c);
    else pushed.set(leaf, [...(pushed.get(leaf) ?? []), c]);
  }
  return withSelection(buildTree(tree, pushed, lock), rest, 'where clause');
}

/** The alias of the only table `c` names, if that table's rows may be filtered before joining. */
function pushTarget(tree: JoinTree, c: Expr): string | null {
  const leaves: Array<{ alias: string; schema: RowSchema; nullable: boolean }> = [];
  collectLeaves(tree, false, leaves);
  const hits = leaves.filter((l) => someExpr(c, (x) => x.kind === 'column' && refersTo(l.schema, x)));
  const only = hits[0];
  if (hits.length !== 1 || only === undefined || only.nullable) return null;
  const all = someExpr(c, (x) => x.kind === 'column' && !refersTo(only.schema, x));
  return all ? null : only.alias;
}

function refersTo(schema: RowSchema, x: Extract<Expr, { kind: 'column' }>): boolean {
  try {
    return schema.indexOf(x) >= 0;
  } catch {
    return true;
  }
}

function collectLeaves(t: JoinTree, nullable: boolean, out: Array<{ alias: string; schema: RowSchema; nullable: boolean }>): void {
  if (t.kind === 'leaf') {
    out.push({ alias: t.alias, schema: t.schema, nullable });
    return;
  }
  collectLeaves(t.left, nullable, out);
  collectLeaves(t.right, nullable || t.joinType === 'left', out);
}

function buildTree(t: JoinTree, pushed: ReadonlyMap<string, Expr[]>, lock: boolean): PlanNode {
  if (t.kind === 'leaf') {
    const needed = t.table.columns.map((_, i) => i);
    return buildTableSource({ table: t.table, alias: t.alias, conds: pushed.get(t.alias) ?? [], needed, lock, fastPath: false });
  }
  const left = buildTree(t.left, pushed, lock);
  const right = buildTree(t.right, pushed, lock);
  const joinType = t.joinType === 'cross' && t.on.length > 0 ? 'inner' : t.joinType;
  return { kind: 'join', schema: t.schema, joinType, left, right, on: t.on };
}
