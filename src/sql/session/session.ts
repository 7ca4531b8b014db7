/**
 * One connection's SQL state and statement dispatch. Data statements (SELECT / INSERT /
 * UPDATE / DELETE / EXPLAIN) are planned by `exec` and run under TransactionControl; the
 * rest (USE, transaction control, SET, SHOW, DDL, KILL) are handled here.
 */
import type { Schema } from '../../catalog/index.js';
import { isSqlError, SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import type { CompiledStatement } from '../exec/index.js';
import { parseStatement, splitStatements, type Statement, type VarScope } from '../parse/index.js';
import { runAccount } from './account-statements.js';
import { runAdmin } from './admin-statements.js';
import { collationForId } from './charset.js';
import { CompiledCache } from './compiled-cache.js';
import { isDdl, okResult, runDdl } from './ddl.js';
import { Diagnostics } from './diagnostics.js';
import type { EngineCore } from './engine-core.js';
import { StatementEvalContext, StatementExecContext, type ContextHost } from './exec-context.js';
import { PreparedStatementImpl, type PreparedHost } from './prepared.js';
import { authorize } from './privileges.js';
import { evalConstant, runSet, type SetHost } from './set-statement.js';
import { fieldListColumns, requireTable } from './show-columns.js';
import { INFORMATION_SCHEMA } from './show-schema.js';
import { runShow, type ShowHost } from './show.js';
import { noteSlow, recordFailure, type StatementEvent } from './statement-log.js';
import type { ProcessInfo } from './show-server.js';
import { canonicalVariableName, displayVariable } from './system-variables.js';
import { TransactionControl } from './transaction-control.js';
import type { ExecResult, PreparedStatement, ResultColumn, Session, SessionOptions } from './types.js';
import { SessionVariables } from './variable-store.js';

/** Plans a data statement against the schema of the transaction it runs in. */
export type Planner = (schema: Schema) => CompiledStatement;

const DATA_KINDS: ReadonlySet<string> = new Set(['select', 'insert', 'update', 'delete', 'explain']);

export class SessionImpl implements Session, ContextHost, SetHost, PreparedHost {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  readonly variables: SessionVariables;
  readonly userVariables = new Map<string, Value>();
  readonly diagnostics: Diagnostics;
  private readonly txc: TransactionControl;
  private readonly compiled = new CompiledCache();
  private db: string | null;
  private lastInsert = 0n;
  private lastRowCount = -1n;
  private lastFoundRows = 0n;
  private autocommitOn = true;
  private strict = true;
  private tz = 'SYSTEM';
  private command = 'Sleep';
  private info: string | null = null;
  private stateSince = Date.now();
  private closed = false;

  constructor(
    private readonly engine: EngineCore,
    private readonly opts: SessionOptions,
  ) {
    this.connectionId = opts.connectionId;
    this.user = opts.user;
    this.host = opts.host;
    this.db = opts.database ?? null;
    const coll = collationForId(opts.collationId);
    const initial = new Map<string, Value>([
      ['character_set_client', coll.charset],
      ['character_set_connection', coll.charset],
      ['character_set_results', coll.charset],
      ['collation_connection', coll.name],
    ]);
    this.variables = new SessionVariables(engine.globals, initial);
    this.diagnostics = new Diagnostics(() => Number(this.variables.peek('max_error_count') ?? 1024n));
    this.txc = new TransactionControl(engine.txns, {
      autocommit: () => this.autocommitOn,
      readOnlyDefault: () => this.variables.peek('transaction_read_only') === 1n,
    }, engine.retryGate);
    this.refreshCachedVariables();
  }

  // --- Session API -----------------------------------------------------------------------------

  inTransaction(): boolean {
    return this.txc.inTransaction();
  }

  autocommit(): boolean {
    return this.autocommitOn;
  }

  currentDatabase(): string | null {
    return this.db;
  }

  async useDatabase(db: string): Promise<void> {
    const schema = await this.engine.catalog.latestSchema();
    if (db !== INFORMATION_SCHEMA && schema.database(db) === undefined) throw SqlError.of('ER_BAD_DB_ERROR', db);
    this.db = db;
  }

  splitStatements(sql: string): string[] {
    return splitStatements(sql);
  }

  async query(sql: string): Promise<ExecResult> {
    this.engine.counters.questions++;
    this.beginCommand('Query', sql);
    try {
      let parsed: ReturnType<EngineCore['statements']['parse']>;
      try {
        parsed = this.engine.statements.parse(sql);
      } catch (err) {
        this.diagnostics.clear();
        recordFailure(this.event(null, null), err);
        throw err;
      }
      const { stmt, params, digest } = parsed;
      return await this.runStatement(stmt, params, digest, (schema) => this.compiled.get(digest, stmt, schema, this.db));
    } finally {
      this.endCommand();
    }
  }

  async prepare(sql: string): Promise<PreparedStatement> {
    const parsed = parseStatement(sql);
    if (parsed.stmt.kind === 'kill') throw SqlError.of('ER_UNSUPPORTED_PS');
    return PreparedStatementImpl.create(this, parsed, sql);
  }

  async fieldList(table: string): Promise<ResultColumn[]> {
    if (this.db === null) throw SqlError.of('ER_NO_DB_ERROR');
    return fieldListColumns(requireTable(await this.schema(), this.db, table));
  }

  async reset(): Promise<void> {
    this.txc.rollback();
    this.userVariables.clear();
    this.variables.reset();
    this.compiled.clear();
    this.diagnostics.clear();
    this.lastInsert = 0n;
    this.lastRowCount = -1n;
    this.lastFoundRows = 0n;
    this.refreshCachedVariables();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.txc.rollback();
    this.engine.unregister(this.connectionId);
  }

  // --- statement execution ---------------------------------------------------------------------

  /** PreparedHost: COM_STMT_EXECUTE. */
  async executePrepared(stmt: Statement, params: readonly Value[], planner: Planner, sql: string): Promise<ExecResult> {
    this.engine.counters.questions++;
    this.beginCommand('Execute', sql);
    try {
      return await this.runStatement(stmt, params, null, planner);
    } finally {
      this.endCommand();
    }
  }

  private async runStatement(stmt: Statement, params: readonly Value[], digest: string | null, planner: Planner): Promise<ExecResult> {
    const keepDiagnostics = (stmt.kind === 'show' && (stmt.target === 'warnings' || stmt.target === 'errors'))
      || (stmt.kind === 'select' && stmt.from === null);
    if (!keepDiagnostics) this.diagnostics.clear();
    const before = this.diagnostics.warningCount();
    const started = performance.now();
    let errno: number | undefined;
    try {
      await authorize({ user: this.user, host: this.host, currentDatabase: this.db }, stmt);
      const result = await this.dispatch(stmt, params, planner);
      this.lastRowCount = result.kind === 'ok' ? result.affectedRows : -1n;
      const warnings = this.diagnostics.warningCount() - before;
      return result.warnings === warnings ? result : { ...result, warnings };
    } catch (err) {
      errno = isSqlError(err) ? err.errno : 1105;
      recordFailure(this.event(stmt, digest), err);
      throw err;
    } finally {
      const ms = performance.now() - started;
      this.engine.observer.statement({ kind: stmt.kind, ms, ...(errno !== undefined ? { errno } : {}) });
      const limit = this.variables.peek('long_query_time');
      if (typeof limit === 'number' && ms >= limit * 1000) noteSlow(this.event(stmt, digest), ms);
    }
  }

  private async dispatch(stmt: Statement, params: readonly Value[], planner: Planner): Promise<ExecResult> {
    if (DATA_KINDS.has(stmt.kind)) return this.runData(planner, params);
    if (isDdl(stmt)) {
      await this.txc.commit();
      return runDdl(stmt, this.ddlHost(), this.evalContext(params));
    }
    switch (stmt.kind) {
      case 'use':
        await this.useDatabase(stmt.db);
        return okResult();
      case 'begin':
        await this.txc.begin(stmt.readOnly);
        return okResult();
      case 'commit':
        await this.txc.commit();
        return okResult();
      case 'rollback':
        this.txc.rollback();
        return okResult();
      case 'savepoint':
        await this.txc.savepoint(stmt.name);
        return okResult();
      case 'rollbackToSavepoint':
        this.txc.rollbackToSavepoint(stmt.name);
        return okResult();
      case 'releaseSavepoint':
        this.txc.releaseSavepoint(stmt.name);
        return okResult();
      case 'set':
      case 'setNames':
      case 'setTransaction':
        await runSet(stmt, this, this.evalContext(params));
        return okResult();
      case 'show':
        return runShow(stmt, this.showHost(params));
      case 'noop':
        return okResult();
      case 'kill':
        return this.kill(stmt.connectionId, stmt.queryOnly, params);
      case 'account':
        return runAccount(stmt.stmt);
      case 'admin':
        return runAdmin(stmt.stmt);
      default:
        throw SqlError.of('ER_NOT_SUPPORTED_YET', stmt.kind);
    }
  }

  private runData(planner: Planner, params: readonly Value[]): Promise<ExecResult> {
    const mark = this.diagnostics.mark();
    return this.txc.run(async (txn, readOnly) => {
      this.diagnostics.restore(mark);
      const schema = await this.engine.catalog.schemaFor(txn);
      this.engine.noteSchema(schema);
      const compiled = planner(schema);
      if (readOnly && !compiled.readOnly) throw SqlError.of('ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION');
      const ctx = new StatementExecContext(this, params, txn, schema, this.engine.catalog, this.opts.foundRows);
      return compiled.run(ctx);
    });
  }

  /** KILL QUERY is accepted (statements of a session are not interruptible yet); KILL [CONNECTION] is not. */
  private kill(target: Parameters<typeof evalConstant>[0], queryOnly: boolean, params: readonly Value[]): ExecResult {
    evalConstant(target, this.evalContext(params));
    if (!queryOnly) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'KILL');
    return okResult();
  }

  private event(stmt: Statement | null, digest: string | null): StatementEvent {
    return { engine: this.engine, diagnostics: this.diagnostics, connectionId: this.connectionId, stmt, digest };
  }

  private beginCommand(command: string, sql: string): void {
    this.command = command;
    this.info = sql;
    this.stateSince = Date.now();
  }

  private endCommand(): void {
    this.command = 'Sleep';
    this.info = null;
    this.stateSince = Date.now();
  }

  // --- hosts handed to helpers -----------------------------------------------------------------

  evalContext(params: readonly Value[] = []): StatementEvalContext {
    return new StatementEvalContext(this, params);
  }

  /** The open transaction's schema (consistent with its reads), else the latest one. */
  async schema(): Promise<Schema> {
    const txn = this.txc.currentTxn();
    return txn === null ? this.engine.catalog.latestSchema() : this.engine.catalog.schemaFor(txn);
  }

  private ddlHost(): Parameters<typeof runDdl>[1] {
    return {
      catalog: this.engine.catalog,
      currentDatabase: () => this.db,
      clearCurrentDatabase: () => {
        this.db = null;
      },
    };
  }

  private showHost(params: readonly Value[]): ShowHost {
    return {
      schema: () => this.schema(),
      currentDatabase: () => this.db,
      evalContext: () => this.evalContext(params),
      variableRows: (global) => this.variableRows(global),
      statusRows: () => this.engine.statusRows(),
      diagnostics: this.diagnostics,
      processList: () => this.engine.processList(),
      user: this.user,
    };
  }

  processInfo(): ProcessInfo {
    return {
      id: this.connectionId,
      user: this.user,
      host: this.host,
      db: this.db,
      command: this.command,
      time: Math.floor((Date.now() - this.stateSince) / 1000),
      state: this.command === 'Sleep' ? '' : 'executing',
      info: this.info,
    };
  }

  variableRows(global: boolean): Array<readonly [string, string]> {
    return this.variables.entries(global ? 'global' : 'session').map(({ def, value }) => {
      const v = global ? value : this.computedVariable(def.name) ?? value;
      return [def.name, displayVariable(def, v)] as const;
    });
  }

  variableChanged(name: string): void {
    if (name === 'sql_mode' || name === 'time_zone' || name === 'autocommit') this.refreshCachedVariables();
  }

  async autocommitChanged(on: boolean): Promise<void> {
    this.autocommitOn = on;
    if (on && this.txc.inTransaction()) await this.txc.commit();
  }

  setNextReadOnly(readOnly: boolean): void {
    this.txc.setNextReadOnly(readOnly);
  }

  private refreshCachedVariables(): void {
    this.autocommitOn = this.variables.peek('autocommit') !== 0n;
    const mode = this.variables.peek('sql_mode');
    this.strict = typeof mode === 'string' && /STRICT_(TRANS|ALL)_TABLES/.test(mode);
    const tz = this.variables.peek('time_zone');
    this.tz = typeof tz === 'string' ? tz : 'SYSTEM';
  }

  private computedVariable(name: string): Value | undefined {
    switch (name) {
      case 'warning_count':
        return BigInt(this.diagnostics.warningCount());
      case 'error_count':
        return BigInt(this.diagnostics.errorCount());
      case 'last_insert_id':
        return this.lastInsert;
      default:
        return undefined;
    }
  }

  // --- ContextHost -----------------------------------------------------------------------------

  readVariable(scope: VarScope, name: string): Value {
    if (scope === 'user') return this.userVariables.get(name.toLowerCase()) ?? null;
    const computed = scope === 'global' ? undefined : this.computedVariable(canonicalVariableName(name));
    return computed ?? this.variables.read(scope, name);
  }
  lastInsertId(): bigint {
    return this.lastInsert;
  }
  setLastInsertId(id: bigint): void {
    this.lastInsert = id;
  }
  rowCount(): bigint {
    return this.lastRowCount;
  }
  foundRows(): bigint {
    return this.lastFoundRows;
  }
  setFoundRows(n: bigint): void {
    this.lastFoundRows = n;
  }
  currentUser(): string {
    return `${this.user}@${this.host}`;
  }
  strictMode(): boolean {
    return this.strict;
  }
  timeZone(): string {
    return this.tz;
  }
  warn(code: number, message: string): void {
    this.diagnostics.add('Warning', code, message);
  }
}
