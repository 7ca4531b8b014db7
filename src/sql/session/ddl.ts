/**
 * DDL statements. The session has already committed any open transaction (MySQL's implicit
 * commit); each catalog call runs its own transactions and bumps the schema version.
 */
import type { BackfillProgress, Catalog } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import { assertNever } from '../../util/index.js';
import type { EvalContext } from '../expr/index.js';
import type { Statement, TableName } from '../parse/index.js';
import { indexSpecFromAst, tableSpecFromAst } from './ddl-from-ast.js';
import type { OkResult } from './types.js';

export type DdlStatement = Extract<
  Statement,
  { kind: 'createDatabase' | 'dropDatabase' | 'createTable' | 'dropTable' | 'createIndex' | 'dropIndex' | 'truncate' }
>;

const DDL_KINDS: ReadonlySet<string> = new Set([
  'createDatabase', 'dropDatabase', 'createTable', 'dropTable', 'createIndex', 'dropIndex', 'truncate',
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
  switch (stmt.kind) {
    case 'createDatabase':
      await catalog.createDatabase(stmt.name, {
        ifNotExists: stmt.ifNotExists,
        ...(stmt.charset === undefined ? {} : { charset: stmt.charset }),
        ...(stmt.collation === undefined ? {} : { collation: stmt.collation }),
      });
      return okResult(1n);
    case 'dropDatabase':
      await catalog.dropDatabase(stmt.name, stmt.ifExists);
      if (host.currentDatabase() === stmt.name) host.clearCurrentDatabase();
      return okResult();
    case 'createTable':
      await catalog.createTable(databaseOf(stmt.table, host), tableSpecFromAst(stmt, ctx), stmt.ifNotExists);
      return okResult();
    case 'dropTable':
      await dropTables(stmt.tables, stmt.ifExists, host);
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
      await catalog.truncateTable(databaseOf(stmt.table, host), stmt.table.name);
      return okResult();
    default:
      return assertNever(stmt, 'DDL statement');
  }
}

/** DROP TABLE a, b: MySQL checks every name first and names all missing ones in one 1051. */
async function dropTables(tables: readonly TableName[], ifExists: boolean, host: DdlHost): Promise<void> {
  const targets = tables.map((t) => ({ db: databaseOf(t, host), name: t.name }));
  if (!ifExists) {
    const schema = await host.catalog.latestSchema();
    const missing = targets.filter((t) => schema.table(t.db, t.name) === undefined);
    if (missing.length > 0) throw SqlError.of('ER_BAD_TABLE_ERROR', missing.map((t) => `${t.db}.${t.name}`).join(','));
  }
  for (const t of targets) await host.catalog.dropTable(t.db, t.name, ifExists);
}
