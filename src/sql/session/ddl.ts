/**
 * DDL statements. The session has already committed any open transaction (MySQL's implicit
 * commit); each catalog call runs its own transactions and bumps the schema version.
 */
import type { BackfillProgress, Catalog, Schema } from '../../catalog/index.js';
import type { CompiledStatement } from '../exec/index.js';
import type { ExecResult } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { assertNever } from '../../util/index.js';
import type { EvalContext } from '../expr/index.js';
import type { Statement, TableName } from '../parse/index.js';
import { foreignKeyChecks, runAlterTable, runRenameTable } from './ddl-alter.js';
import { createTableSelect } from './ddl-create-select.js';
import { indexSpecFromAst, knownCollation, tableSpecFromAst } from './ddl-from-ast.js';
import type { OkResult } from './types.js';
import { rejectViewDdl, runViewStatement } from './ddl-view.js';

export type DdlStatement = Extract<
  Statement,
  { kind: 'createDatabase' | 'dropDatabase' | 'createTable' | 'dropTable' | 'createIndex' | 'dropIndex' | 'truncate' | 'alterTable' | 'renameTable' | 'createView' | 'dropView' }
>;

const DDL_KINDS: ReadonlySet<string> = new Set([
  'createDatabase', 'dropDatabase', 'createTable', 'dropTable', 'createIndex', 'dropIndex', 'truncate', 'alterTable', 'renameTable',
  'createView', 'dropView',
]);

export function isDdl(stmt: Statement): stmt is DdlStatement {
  return DDL_KINDS.has(stmt.kind);
}

export interface DdlHost {
  readonly catalog: Catalog;
  currentDatabase(): string | null;
  /** Called after DROP DATABASE of the current database. */
  clearCurrentDatabase(): void;
  /** CREATE INDEX backfill progress (PROCESSLIST State, log lines, KILL QUERY). */
  readonly indexProgress?: BackfillProgress;
  /** Runs a compiled data statement in its own (autocommit) transaction: CREATE TABLE ... SELECT's insert. */
  readonly runPlanned?: (planner: (schema: Schema) => CompiledStatement) => Promise<ExecResult>;
}

export function okResult(affectedRows = 0n, info = ''): OkResult {
  return { kind: 'ok', affectedRows, insertId: 0n, info, warnings: 0 };
}

export function databaseOf(table: TableName, host: { currentDatabase(): string | null }): string {
  const db = table.db ?? host.currentDatabase();
  if (db === null) throw SqlError.of('ER_NO_DB_ERROR');
  return db;
}

export async function runDdl(stmt: DdlStatement, host: DdlHost, ctx: EvalContext): Promise<OkResult> {
  const catalog = host.catalog;
  await rejectViewDdl(stmt, (t) => databaseOf(t, host), catalog);
  switch (stmt.kind) {
    case 'createDatabase':
      if (stmt.ifNotExists && (await catalog.latestSchema()).database(stmt.name) !== undefined) {
        ctx.warn(1007, `Can't create database '${stmt.name}'; database exists`);
        return okResult();
      }
      await catalog.createDatabase(stmt.name, {
        ifNotExists: stmt.ifNotExists,
        ...(stmt.charset === undefined ? {} : { charset: stmt.charset }),
        ...(stmt.collation === undefined ? {} : { collation: knownCollation(stmt.collation) }),
      });
      return okResult(1n);
    case 'dropDatabase':
      await catalog.dropDatabase(stmt.name, stmt.ifExists);
      if (host.currentDatabase() === stmt.name) host.clearCurrentDatabase();
      return okResult();
    case 'createTable': {
      const db = databaseOf(stmt.table, host);
      if (stmt.like !== undefined) {
        await catalog.createTableLike(db, stmt.table.name, { db: stmt.like.db ?? db, name: stmt.like.name }, stmt.ifNotExists);
        return okResult();
      }
      if (stmt.select !== undefined) return createTableSelect(stmt, db, host, ctx);
      const created = await catalog.createTable(db, tableSpecFromAst(stmt, ctx), stmt.ifNotExists, foreignKeyChecks(ctx));
      if (created === null) ctx.warn(1050, `Table '${stmt.table.name}' already exists`);
      return okResult();
    }
    case 'dropTable':
      await dropTables(stmt.tables, stmt.ifExists, host, foreignKeyChecks(ctx));
      return okResult();
    case 'alterTable':
      await runAlterTable(stmt, host, ctx, host.indexProgress);
      return okResult(0n, 'Records: 0  Duplicates: 0  Warnings: 0');
    case 'renameTable':
      await runRenameTable(stmt, host);
      return okResult();
    case 'createIndex': {
      const spec = { ...indexSpecFromAst(stmt.index), name: stmt.index.name };
      await catalog.createIndex(databaseOf(stmt.table, host), stmt.table.name, spec, stmt.ifNotExists, host.indexProgress);
      return okResult();
    }
    case 'dropIndex':
      await catalog.dropIndex(databaseOf(stmt.table, host), stmt.table.name, stmt.name, stmt.ifExists);
      return okResult();
    case 'truncate':
      if (foreignKeyChecks(ctx)) await checkTruncate(databaseOf(stmt.table, host), stmt.table.name, catalog);
      await catalog.truncateTable(databaseOf(stmt.table, host), stmt.table.name);
      return okResult();
    case 'createView':
    case 'dropView':
      await runViewStatement(stmt, { catalog, currentDatabase: () => host.currentDatabase(), currentUser: () => ctx.currentUser() });
      return okResult();
    default:
      return assertNever(stmt, 'DDL statement');
  }
}

/** TRUNCATE of a table another table's foreign key references: 1701, as InnoDB. */
async function checkTruncate(db: string, name: string, catalog: Catalog): Promise<void> {
  const schema = await catalog.latestSchema();
  const q = (s: string): string => '`' + s.replace(/`/g, '``') + '`';
  for (const d of schema.databases()) {
    for (const t of schema.tables(d.name)) {
      if (t.dbName === db && t.name === name) continue;
      const fk = t.foreignKeys.find((f) => f.refDb === db && f.refTable === name);
      if (fk === undefined) continue;
      const text = `${q(t.dbName)}.${q(t.name)}, CONSTRAINT ${q(fk.name)} FOREIGN KEY (${fk.columns.map(q).join(', ')}) REFERENCES ${q(db)}.${q(name)} (${fk.refColumns.map(q).join(', ')})`;
      throw SqlError.of('ER_TRUNCATE_ILLEGAL_FK', text);
    }
  }
}

/** DROP TABLE a, b: MySQL checks every name first and names all missing ones in one 1051. */
async function dropTables(tables: readonly TableName[], ifExists: boolean, host: DdlHost, fkChecks: boolean): Promise<void> {
  const schema = await host.catalog.latestSchema();
  // A view is not a table to DROP TABLE (MySQL: 1051, or skipped with IF EXISTS).
  const targets = tables.map((t) => ({ db: databaseOf(t, host), name: t.name })).filter((t) => !ifExists || schema.table(t.db, t.name)?.view === undefined);
  if (!ifExists) {
    const missing = targets.filter((t) => schema.table(t.db, t.name) === undefined || schema.table(t.db, t.name)?.view !== undefined);
    if (missing.length > 0) throw SqlError.of('ER_BAD_TABLE_ERROR', missing.map((t) => `${t.db}.${t.name}`).join(','));
  }
  const alsoDropped = new Set(targets.map((t) => `${t.db}.${t.name}`));
  for (const t of targets) await host.catalog.dropTable(t.db, t.name, ifExists, fkChecks ? { alsoDropped } : undefined);
}
