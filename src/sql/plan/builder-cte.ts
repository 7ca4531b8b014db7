/**
 * WITH [RECURSIVE]: each name is planned afresh where it is referenced (a derived table). A
 * recursive CTE is a UNION whose first members do not name it (the anchor) and whose later
 * members read it: they are planned over a `cteRef` that, at run time, yields the rows of the
 * previous iteration (exec/cte.ts), until an iteration adds nothing.
 */
import type { SelectStmt, WithClause } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { PlanNode } from './nodes.js';
import { RowSchema, type SchemaColumn } from './row-schema.js';
import type { CteDef, PlanScope } from './builder-scope.js';
import { derivedNode, type QueryPlanner } from './builder-derived.js';
import { castToTypes } from './builder-union.js';
import { containsAgg } from './expr-utils.js';

export function defineCtes(w: WithClause, scope: PlanScope): PlanScope {
  let s = scope;
  for (const cte of w.ctes) {
    const recursive = w.recursive && namesTable(cte.query, cte.name);
    const def: CteDef = { kind: 'query', name: cte.name, query: cte.query, scope: s, recursive, ...(cte.columns ? { columns: cte.columns } : {}) };
    s = s.withCte(def);
  }
  return s;
}

/** The plan of a reference to WITH name `name` under `alias`, or undefined if no CTE has that name. */
export function planCteReference(name: string, alias: string, scope: PlanScope, plan: QueryPlanner): PlanNode | undefined {
  const def = scope.cte(name);
  if (def === undefined) return undefined;
  if (def.kind === 'working') {
    def.refs++;
    if (def.refs > 1) throw SqlError.of('ER_CTE_RECURSIVE_REQUIRES_SINGLE_REFERENCE', name);
    const schema = new RowSchema(def.schema.columns.map((c) => ({ ...c, table: alias })));
    return { kind: 'cteRef', schema, id: def.id, name };
  }
  if (!def.recursive) return derivedNode(plan(def.query, def.scope), alias, def.columns);
  return derivedNode(planRecursive(def, plan), alias, def.columns);
}

function planRecursive(def: Extract<CteDef, { kind: 'query' }>, plan: QueryPlanner): PlanNode {
  const members = unionMembers(def.query);
  const firstRec = members.findIndex((m) => namesTable(m.select, def.name));
  if (members.length < 2 || firstRec < 1) throw SqlError.of('ER_CTE_RECURSIVE_REQUIRES_UNION', def.name);
  const anchorStmt = joinMembers(members.slice(0, firstRec), def.query);
  const anchor = plan(anchorStmt, def.scope);
  const names = def.columns ?? anchor.schema.columns.map((c) => c.name);
  if (names.length !== anchor.schema.width) throw SqlError.of('ER_VIEW_WRONG_LIST');
  const id = def.scope.counters.nextCte++;
  const cols: SchemaColumn[] = anchor.schema.columns.map((c, i) => ({ name: names[i] ?? c.name, table: def.name, db: '', type: c.type, notNull: false }));
  const schema = new RowSchema(cols);
  const working: CteDef = { kind: 'working', name: def.name, id, schema, refs: 0 };
  const recScope = def.scope.withCte(working);
  const parts = members.slice(firstRec).map((m) => {
    if (!namesTable(m.select, def.name)) throw SqlError.of('ER_CTE_RECURSIVE_REQUIRES_UNION', def.name);
    if (m.select.groupBy.length > 0 || m.select.items.some((it) => it.kind === 'expr' && containsAgg(it.expr))) {
      throw SqlError.of('ER_CTE_RECURSIVE_FORBIDS_AGGREGATION', def.name);
    }
    working.refs = 0;
    const p = plan(m.select, recScope);
    if (p.schema.width !== schema.width) throw SqlError.of('ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT');
    return castToTypes(p, schema);
  });
  const recursive: PlanNode = parts.length === 1 ? (parts[0] as PlanNode) : { kind: 'union', schema, children: parts, distinctUpTo: 0 };
  const distinct = members.slice(firstRec).some((m) => !m.all);
  const outSchema = new RowSchema(anchor.schema.columns.map((c, i) => ({ name: names[i] ?? c.name, table: '', db: '', type: c.type, notNull: false })));
  return { kind: 'cteRecursive', schema: outSchema, id, name: def.name, anchor, recursive, distinct };
}

interface Member {
  readonly all: boolean;
  readonly select: SelectStmt;
}

function unionMembers(q: SelectStmt): Member[] {
  const { union, orderBy: _o, limit: _l, with: _w, ...first } = q;
  return [{ all: true, select: { ...first, orderBy: [] } }, ...(union ?? [])];
}

function joinMembers(members: readonly Member[], whole: SelectStmt): SelectStmt {
  const [first, ...rest] = members;
  if (first === undefined) throw SqlError.of('ER_CTE_RECURSIVE_REQUIRES_UNION', '');
  const base = whole.with !== undefined ? { ...first.select, with: whole.with } : first.select;
  return rest.length === 0 ? base : { ...base, union: rest };
}

/** True when `node` (a statement) reads a table named `name` without a database qualifier. */
export function namesTable(node: unknown, name: string): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some((x) => namesTable(x, name));
  const o = node as Record<string, unknown>;
  if (o['kind'] === 'table') {
    const t = o['table'];
    if (typeof t === 'object' && t !== null) {
      const tn = t as Record<string, unknown>;
      if (tn['name'] === name && tn['db'] === undefined) return true;
    }
  }
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && namesTable(v, name)) return true;
  }
  return false;
}
