/**
 * CREATE TABLE t [(defs)] [IGNORE | REPLACE] [AS] SELECT ...: the table gets the explicit
 * definitions plus one column per SELECT column not defined (type and nullability of the
 * result column), then the rows are inserted as by INSERT ... SELECT in their own
 * transaction. If the insert fails the new table is dropped again (MySQL 8's atomic CTAS).
 */
import type { ColumnSpec, Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import { makeType, type ColumnType, type ExecResult } from '../../types/index.js';
import type { EvalContext } from '../expr/index.js';
import { compileStatement, type CompiledStatement } from '../exec/index.js';
import type { CreateTableStmt, InsertStmt, SelectStmt } from '../parse/index.js';
import { buildSelect } from '../plan/index.js';
import { foreignKeyChecks } from './ddl-alter.js';
import { tableSpecFromAst } from './ddl-from-ast.js';
import type { OkResult } from './types.js';

export interface CreateSelectHost {
  readonly catalog: { latestSchema(): Promise<Schema> } & {
    createTable(db: string, spec: ReturnType<typeof tableSpecFromAst>, ifNotExists: boolean, fkChecks?: boolean): Promise<unknown>;
    dropTable(db: string, name: string, ifExists: boolean): Promise<void>;
  };
  currentDatabase(): string | null;
  readonly runPlanned?: (planner: (schema: Schema) => CompiledStatement) => Promise<ExecResult>;
}

export async function createTableSelect(stmt: CreateTableStmt, db: string, host: CreateSelectHost, ctx: EvalContext): Promise<OkResult> {
  const select = stmt.select as SelectStmt;
  if (host.runPlanned === undefined) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'CREATE TABLE ... SELECT');
  const schema = await host.catalog.latestSchema();
  if (schema.table(db, stmt.table.name) !== undefined) {
    if (stmt.ifNotExists) return { kind: 'ok', affectedRows: 0n, insertId: 0n, info: '', warnings: 0 };
    throw SqlError.of('ER_TABLE_EXISTS_ERROR', stmt.table.name);
  }
  const names = selectNames(select, buildSelect(select, schema, host.currentDatabase()).schema.columns);
  const spec = tableSpecFromAst(stmt, ctx);
  const defined = new Set(spec.columns.map((c) => c.name.toLowerCase()));
  const extra: ColumnSpec[] = names.filter((c) => !defined.has(c.name.toLowerCase())).map(columnFromResult);
  await host.catalog.createTable(db, { ...spec, columns: [...spec.columns, ...extra] }, false, foreignKeyChecks(ctx));
  const insert: InsertStmt = {
    kind: 'insert', table: { db, name: stmt.table.name }, columns: names.map((c) => c.name), rows: [], select,
    ignore: stmt.selectMode === 'ignore', replace: stmt.selectMode === 'replace', onDuplicate: [],
  };
  try {
    const r = await host.runPlanned((s) => compileStatement(insert, s, host.currentDatabase()));
    const n = r.kind === 'ok' ? r.affectedRows : 0n;
    return { kind: 'ok', affectedRows: n, insertId: 0n, info: r.kind === 'ok' ? r.info : '', warnings: r.kind === 'ok' ? r.warnings : 0 };
  } catch (err) {
    await host.catalog.dropTable(db, stmt.table.name, true).catch(() => undefined);
    throw err;
  }
}

interface ResultColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull: boolean;
}

/** Result column names: the select list's aliases / texts where there is no `*`, else the plan's names. */
function selectNames(select: SelectStmt, columns: ReadonlyArray<{ name: string; type: ColumnType; notNull: boolean }>): ResultColumnDef[] {
  const noStar = select.items.every((i) => i.kind === 'expr') && select.items.length === columns.length;
  return columns.map((c, i) => {
    const item = noStar ? select.items[i] : undefined;
    const name = item !== undefined && item.kind === 'expr' ? (item.alias ?? (item.expr.kind === 'column' ? item.expr.name : item.text)) : c.name;
    return { name, type: c.type, notNull: c.notNull };
  });
}

function columnFromResult(c: ResultColumnDef): ColumnSpec {
  const type = c.type.kind === 'null' ? makeType('binary', { length: 0 }) : c.type;
  return {
    name: c.name, type, notNull: c.notNull, default: { kind: 'none' }, autoIncrement: false,
    onUpdateNow: false, comment: '', primaryKey: false, unique: false,
  };
}
