/**
 * ALTER TABLE / RENAME TABLE from the AST: the parsed operations become catalog AlterActions
 * (column definitions through the same path as CREATE TABLE), and the hooks the catalog needs
 * from the SQL layer (value conversion with strict errors, CHECK / FOREIGN KEY validation of
 * the existing rows) are built over the statement's evaluation context.
 */
import {
  columnDefaultValue, findColumn, type TableInfo, type AlterAction, type AlterHooks, type Catalog, type CheckInfo, type ColumnInfo, type ForeignKeySpec, type Schema,
} from '../../catalog/index.js';
import { ERRORS, SqlError, type ErrorName } from '../../errors/index.js';
import type { Txn } from '../../txn/index.js';
import { truthy, coerceToColumn, type EvalContext } from '../expr/index.js';
import { compileChecks, foreignKeyRowValidator, implicitZero, overrideContext } from '../exec/index.js';
import type { AlterOp, AlterTableStmt, ForeignKeyDef, RenameTableStmt } from '../parse/index.js';
import { checkInfoFromAst, columnSpecFromAst, defaultFromAst, foreignKeySpecFromAst, indexSpecFromAst, tableOptions } from './ddl-from-ast.js';

export interface AlterHost {
  readonly catalog: Catalog;
  currentDatabase(): string | null;
}

function databaseOf(name: { db?: string }, host: AlterHost): string {
  const db = name.db ?? host.currentDatabase();
  if (db === null) throw SqlError.of('ER_NO_DB_ERROR');
  return db;
}

export async function runAlterTable(stmt: AlterTableStmt, host: AlterHost, ctx: EvalContext, progress?: Parameters<Catalog['alterTable']>[4]): Promise<void> {
  const db = databaseOf(stmt.table, host);
  const schema = await host.catalog.latestSchema();
  const table = schema.table(db, stmt.table.name);
  if (table === undefined) throw SqlError.of('ER_NO_SUCH_TABLE', `${db}.${stmt.table.name}`);
  const actions = stmt.ops.flatMap((op) => actionsOf(op, db, host, ctx, table));
  if (actions.length === 0) return;
  await host.catalog.alterTable(db, stmt.table.name, actions, alterHooks(ctx, schema), progress);
}

export async function runRenameTable(stmt: RenameTableStmt, host: AlterHost): Promise<void> {
  const pairs = stmt.pairs.map((p) => ({
    from: { db: databaseOf(p.from, host), name: p.from.name },
    to: { db: databaseOf(p.to, host), name: p.to.name },
  }));
  await host.catalog.renameTables(pairs);
}

export function foreignKeyChecks(ctx: EvalContext): boolean {
  return truthy(ctx.getVariable('session', 'foreign_key_checks')) !== false;
}

function actionsOf(op: AlterOp, db: string, host: AlterHost, ctx: EvalContext, table: TableInfo): AlterAction[] {
  switch (op.op) {
    case 'addColumn':
      return [{ op: 'addColumn', spec: columnSpecFromAst(op.column, false, ctx), ...(op.position ? { position: op.position } : {}) }];
    case 'modifyColumn':
      return [{ op: 'modifyColumn', from: op.from, spec: columnSpecFromAst(op.column, false, ctx), ...(op.position ? { position: op.position } : {}) }];
    case 'setDefault': {
      const col = findColumn(table, op.name);
      if (col === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', op.name, table.name);
      return [{ op: 'setDefault', name: op.name, default: op.default === undefined ? { kind: 'none' } : defaultFromAst(col, op.default, ctx) }];
    }
    case 'addIndex':
      return [{ op: 'addIndex', spec: indexSpecFromAst(op.index) }];
    case 'renameTable':
      return [{ op: 'renameTable', db: databaseOf(op.to, host), name: op.to.name }];
    case 'addForeignKey':
      return [{ op: 'addForeignKey', fk: foreignKey(op.fk, db) }];
    case 'addCheck':
      return [{ op: 'addCheck', check: checkInfoFromAst(op.check) }];
    case 'options':
      return optionActions(op.options);
    case 'convertCharset': {
      const charset = op.charset === 'utf8' ? 'utf8mb3' : op.charset;
      return [{ op: 'convertCharset', charset, ...(op.collation !== undefined ? { collation: op.collation } : {}) }];
    }
    case 'dropColumn':
    case 'dropIndex':
    case 'dropPrimaryKey':
    case 'renameColumn':
    case 'renameIndex':
    case 'dropForeignKey':
    case 'dropConstraint':
    case 'enforceCheck':
      return [op];
  }
}

function foreignKey(fk: ForeignKeyDef, db: string): ForeignKeySpec {
  const spec = foreignKeySpecFromAst(fk);
  return spec.refDb === '' ? { ...spec, refDb: db } : spec;
}

function optionActions(options: Readonly<Record<string, string>>): AlterAction[] {
  const o = tableOptions(options);
  const out: AlterAction[] = [];
  if (o.autoIncrementStart !== undefined) out.push({ op: 'autoIncrement', value: o.autoIncrementStart });
  if ('COMMENT' in options) out.push({ op: 'comment', text: o.comment });
  if (o.charset !== undefined || o.collation !== undefined) {
    out.push({ op: 'charset', ...(o.charset ? { charset: o.charset } : {}), ...(o.collation ? { collation: o.collation } : {}) });
  }
  return out;
}

function alterHooks(ctx: EvalContext, schema: Schema): AlterHooks {
  const strict = strictConversion(ctx);
  return {
    foreignKeyChecks: foreignKeyChecks(ctx),
    convert: (value, column, rowNumber) => coerceToColumn(value, column, rowNumber, strict),
    originValue: (column: ColumnInfo) => (column.default.kind === 'now' ? columnDefaultValue(column, ctx.now()) : implicitZero(column.type)),
    rowValidator: (txn: Txn, table, added: { readonly checks: readonly CheckInfo[]; readonly foreignKeys: readonly ForeignKeySpec[] }) => {
      const check = added.checks.length > 0 ? compileChecks(table, added.checks) : null;
      const fks = added.foreignKeys.length > 0 ? foreignKeyRowValidator(txn, table, added.foreignKeys, schema, ctx) : null;
      return async (row) => {
        check?.(row, ctx);
        if (fks !== null) await fks(row);
      };
    },
  };
}

/** The statement's context with every conversion warning raised as its error (strict ALTER). */
function strictConversion(ctx: EvalContext): EvalContext {
  return overrideContext(ctx, true, (code, message) => {
    throw new SqlError(errorName(code), message);
  });
}

function errorName(errno: number): ErrorName {
  for (const [name, spec] of Object.entries(ERRORS)) if (spec.errno === errno) return name as ErrorName;
  return 'ER_UNKNOWN_ERROR';
}
