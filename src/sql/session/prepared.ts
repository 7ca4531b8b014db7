/**
 * Server-side prepared statements: parsed once; data statements planned once against the
 * schema of the time (and the database current at PREPARE, as MySQL binds it) and re-planned
 * when the schema version changes. Transaction control, SET, SHOW, USE and DDL are preparable
 * too and run like their text form with the parameters bound.
 */
import type { Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { RowSink, Value } from '../../types/index.js';
import { compileStatement, type CompiledStatement } from '../exec/index.js';
import type { ParsedStatement, Statement } from '../parse/index.js';
import type { ExecResult, PreparedStatement, ResultColumn } from './types.js';

const DATA_KINDS: ReadonlySet<string> = new Set(['select', 'insert', 'update', 'delete', 'explain']);

export interface PreparedHost {
  currentDatabase(): string | null;
  schema(): Promise<Schema>;
  executePrepared(
    stmt: Statement,
    params: readonly Value[],
    planner: (schema: Schema) => CompiledStatement,
    sql: string,
    rowSink?: RowSink,
  ): Promise<ExecResult>;
}

export class PreparedStatementImpl implements PreparedStatement {
  private compiled: CompiledStatement | null;
  private closed = false;

  private constructor(
    private readonly host: PreparedHost,
    private readonly stmt: Statement,
    readonly paramCount: number,
    private readonly sql: string,
    private readonly db: string | null,
    compiled: CompiledStatement | null,
  ) {
    this.compiled = compiled;
  }

  static async create(host: PreparedHost, parsed: ParsedStatement, sql: string): Promise<PreparedStatementImpl> {
    const db = host.currentDatabase();
    const compiled = DATA_KINDS.has(parsed.stmt.kind) ? compileStatement(parsed.stmt, await host.schema(), db) : null;
    return new PreparedStatementImpl(host, parsed.stmt, parsed.paramCount, sql, db, compiled);
  }

  get columns(): readonly ResultColumn[] {
    return this.compiled?.columns ?? [];
  }

  execute(params: readonly Value[], rowSink?: RowSink): Promise<ExecResult> {
    if (this.closed || params.length !== this.paramCount) {
      return Promise.reject(SqlError.of('ER_WRONG_ARGUMENTS', 'mysqld_stmt_execute'));
    }
    return this.host.executePrepared(this.stmt, params, (schema) => this.plan(schema), this.sql, rowSink);
  }

  close(): void {
    this.closed = true;
    this.compiled = null;
  }

  private plan(schema: Schema): CompiledStatement {
    if (this.compiled === null || this.compiled.schemaVersion !== schema.version) {
      this.compiled = compileStatement(this.stmt, schema, this.db);
    }
    return this.compiled;
  }
}
