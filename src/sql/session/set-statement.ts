/**
 * SET @u = expr, SET [GLOBAL|SESSION] sysvar = expr|DEFAULT, SET NAMES / CHARACTER SET and
 * SET TRANSACTION. Bare words on the right of a system variable (`SET autocommit = ON`,
 * `SET sql_mode = TRADITIONAL`) are taken as strings, as MySQL does.
 *
 * SET TRANSACTION ISOLATION LEVEL accepts all four levels and stores them in
 * @@transaction_isolation, but every transaction runs as snapshot isolation.
 */
import { SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { compileExpr, type EvalContext, type Scope } from '../expr/index.js';
import type { Expr, SetAssignment, Statement } from '../parse/index.js';
import { canonicalCharset, canonicalCollation, defaultCollationOf } from './charset.js';
import { normalizeIsolation } from './variable-values.js';
import type { SessionVariables } from './variable-store.js';

export type SetStatement = Extract<Statement, { kind: 'set' | 'setNames' | 'setTransaction' }>;

const EMPTY_SCOPE: Scope = { resolve: () => undefined };

export interface SetHost {
  readonly variables: SessionVariables;
  readonly userVariables: Map<string, Value>;
  inTransaction(): boolean;
  setLastInsertId(id: bigint): void;
  /** @@autocommit changed (SET autocommit=1 commits an open transaction). */
  autocommitChanged(on: boolean): Promise<void>;
  /** A session variable the session caches (sql_mode ...) changed. */
  variableChanged(name: string): void;
  setNextReadOnly(readOnly: boolean): void;
}

export function evalConstant(expr: Expr, ctx: EvalContext): Value {
  return compileExpr(expr, EMPTY_SCOPE, 'field list')([], ctx);
}

export async function runSet(stmt: SetStatement, host: SetHost, ctx: EvalContext): Promise<void> {
  switch (stmt.kind) {
    case 'set':
      for (const a of stmt.assignments) await assign(a, host, ctx);
      return;
    case 'setNames':
      setNames(stmt.charset, stmt.collation, host);
      return;
    case 'setTransaction':
      setTransaction(stmt, host);
      return;
  }
}

async function assign(a: SetAssignment, host: SetHost, ctx: EvalContext): Promise<void> {
  if (a.scope === 'user') {
    host.userVariables.set(a.name.toLowerCase(), a.value.kind === 'default' ? null : evalConstant(a.value, ctx));
    return;
  }
  const scope = a.scope === 'global' ? 'global' : 'session';
  const value = systemValue(a.value, ctx);
  const { name, value: stored } = host.variables.write(scope, a.name, value);
  if (scope === 'global') return;
  if (name === 'last_insert_id') host.setLastInsertId(typeof stored === 'bigint' ? stored : 0n);
  else if (name === 'autocommit') await host.autocommitChanged(stored === 1n);
  host.variableChanged(name);
}

/** undefined = DEFAULT. */
function systemValue(expr: Expr, ctx: EvalContext): Value | undefined {
  if (expr.kind === 'default') return undefined;
  if (expr.kind === 'column' && expr.table === undefined && expr.db === undefined) return expr.name;
  return evalConstant(expr, ctx);
}

function setNames(charset: string, collation: string | undefined, host: SetHost): void {
  const cs = charset.toLowerCase() === 'default' ? 'utf8mb4' : canonicalCharset(charset);
  if (cs === undefined) throw SqlError.of('ER_UNKNOWN_CHARACTER_SET', charset);
  let coll = defaultCollationOf(cs);
  if (collation !== undefined) {
    const info = canonicalCollation(collation);
    if (info === undefined || info.charset !== cs) throw SqlError.of('ER_UNKNOWN_COLLATION', collation);
    coll = info.name;
  }
  const vars = host.variables;
  vars.write('session', 'character_set_client', cs);
  vars.write('session', 'character_set_connection', cs);
  vars.write('session', 'character_set_results', cs);
  vars.write('session', 'collation_connection', coll);
}

function setTransaction(stmt: Extract<Statement, { kind: 'setTransaction' }>, host: SetHost): void {
  const level = stmt.isolation === undefined ? undefined : normalizeIsolation(stmt.isolation);
  if (stmt.isolation !== undefined && level === undefined) {
    throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', 'transaction_isolation', stmt.isolation);
  }
  if (stmt.scope === 'next') {
    if (host.inTransaction()) throw SqlError.of('ER_CANT_CHANGE_TX_CHARACTERISTICS');
    if (stmt.readOnly !== undefined) host.setNextReadOnly(stmt.readOnly);
    return;
  }
  if (level !== undefined) host.variables.write(stmt.scope, 'transaction_isolation', level);
  if (stmt.readOnly !== undefined) host.variables.write(stmt.scope, 'transaction_read_only', stmt.readOnly ? 1n : 0n);
  if (stmt.scope === 'session') host.variableChanged('transaction_read_only');
}
