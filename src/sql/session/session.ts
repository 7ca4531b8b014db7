/**
 * One connection's SQL state and statement dispatch. Data statements (SELECT / INSERT /
 * UPDATE / DELETE / EXPLAIN) are planned by `exec` and run under TransactionControl; the
 * rest (USE, transaction control, SET, SHOW, DDL, KILL) are handled here.
 */
import type { Schema } from '../../catalog/index.js';
import { isSqlError, SqlError } from '../../errors/index.js';
import type { Txn } from '../../txn/index.js';
import type { RowSink, Value } from '../../types/index.js';
import { LazyText } from '../../util/index.js';
import type { CompiledStatement } from '../exec/index.js';
import { BULK_MIN_CHARS, parseBulkInsertBytes, parseStatement, splitStatements, type Statement, type VarScope } from '../parse/index.js';
import { accountHostFor, runAccount, type AccountHost } from './account-statements.js';
import { afterStatement, aroundStatement, currentAccount } from './statement-hooks.js';
import type { AsyncEnv } from './async-calls.js';
import { runAdmin } from './admin-statements.js';
import { CachedSettings, computedVariable, variableRowsOf } from './cached-settings.js';
import { collationForId } from './charset.js';
import { CompiledCache } from './compiled-cache.js';
import { isDdl, okResult, runDdl } from './ddl.js';
import { Diagnostics } from './diagnostics.js';
import type { EngineCore } from './engine-core.js';
import { StatementEvalContext, StatementExecContext, type ContextHost } from './exec-context.js';
import { requesterVisibility, tableStatsReader } from './info-schema-source.js';
import { PreparedStatementImpl, type PreparedHost } from './prepared.js';
import { authorize, authorizeDatabase, authorizeTable, hasPrivilegeChecks, visibleShowResult, type Requester } from './privileges.js';
import { rejectInfoSchemaWrite } from './info-schema-rows.js';
import { runKill } from './kill.js';
import { runSet, type SetHost } from './set-statement.js';
import { fieldListColumns, requireTable } from './show-columns.js';
import { INFORMATION_SCHEMA } from './show-schema.js';
import { runShow, type ShowHost } from './show.js';
import { StatementControl } from './statement-control.js';
import { noteSlow, recordFailure, type StatementEvent } from './statement-log.js';
import type { ProcessInfo } from './show-server.js';
import { canonicalVariableName } from './system-variables.js';
import { TransactionControl, type Prefetch } from './transaction-control.js';
import { isCurrentRead, isDataStatement, prefetchFor, type Planner } from './data-statements.js';
import type { ExecResult, PreparedStatement, ResultColumn, Session, SessionOptions } from './types.js';
import { connectionVariables, SessionVariables } from './variable-store.js';
import { SessionCounters } from './session-counters.js';

export type { Planner } from './data-statements.js';

export class SessionImpl extends SessionCounters implements Session, ContextHost, SetHost, PreparedHost {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  readonly variables: SessionVariables;
  readonly userVariables = new Map<string, Value>();
  readonly diagnostics: Diagnostics;
  /** The running statement: KILL, max_execution_time, PROCESSLIST State. */
  readonly control: StatementControl;
  private readonly txc: TransactionControl;
  private readonly compiled = new CompiledCache();
  private db: string | null;
  private readonly settings: CachedSettings;
  private closed = false;
  /** Plan of the data statement running now (for the slow-query log). */
  private currentPlan: CompiledStatement['plan'];
  private readonly hooksEnv: AsyncEnv;

  constructor(
    private readonly engine: EngineCore,
    private readonly opts: SessionOptions,
  ) {
    super();
    this.connectionId = opts.connectionId;
    this.user = opts.user;
    this.host = opts.host;
    this.db = opts.database ?? null;
    const initial = connectionVariables(collationForId(opts.collationId), opts.interactive === true, engine.globals);
    this.variables = new SessionVariables(engine.globals, initial);
    this.control = new StatementControl(engine, opts, this.variables, opts.disconnect);
    this.diagnostics = new Diagnostics(() => Number(this.variables.peek('max_error_count') ?? 1024n));
    this.txc = new TransactionControl(engine.txns, {
      autocommit: () => this.settings.autocommit,
      readOnlyDefault: () => this.variables.peek('transaction_read_only') === 1n,
    }, engine.retryGate, engine.observer);
    this.settings = new CachedSettings(this.variables);
    const control = this.control; // the running statement's token: read when used, not now
    this.hooksEnv = { host: this, txns: engine.txns, get cancel() { return control.cancel; }, account: () => currentAccount(engine.users, this.user, this.host) };
  }

  // --- Session API -----------------------------------------------------------------------------

  inTransaction(): boolean {
    return this.txc.inTransaction();
  }

  autocommit(): boolean {
    return this.settings.autocommit;
  }

  currentDatabase(): string | null {
    return this.db;
  }

  async useDatabase(db: string): Promise<void> {
    const schema = await this.engine.catalog.latestSchema();
    if (db !== INFORMATION_SCHEMA && schema.database(db) === undefined) throw SqlError.of('ER_BAD_DB_ERROR', db);
    await authorizeDatabase(this.requester(), db);
    this.db = db;
  }

  splitStatements(sql: string): string[] {
    return splitStatements(sql);
  }

  /** COM_QUERY (one statement). runStatement ends the command; a parse error ends it here. */
  query(sql: string, rowSink?: RowSink): Promise<ExecResult> {
    this.engine.counters.questions++;
    this.control.beginCommand('Query', sql, rowSink);
    let parsed: ReturnType<EngineCore['statements']['parse']>;
    try {
      parsed = this.engine.statements.parse(sql);
    } catch (err) {
      this.diagnostics.clear();
      recordFailure(this.event(null), err);
      this.control.endCommand();
      return Promise.reject(err);
    }
    const { stmt, params, digest } = parsed;
    return this.runStatement(stmt, params, (schema) => this.compiled.get(digest, stmt, schema, this.db));
  }

  /** COM_QUERY as bytes: a large literal-rows INSERT read from them (bulk-insert-bytes.ts); else undefined, nothing done. */
  queryBytes(payload: Uint8Array, start: number, rowSink?: RowSink): Promise<ExecResult> | undefined {
    if (payload.length - start < BULK_MIN_CHARS) return undefined;
    const stmt = parseBulkInsertBytes(payload, start);
    if (stmt === undefined) return undefined;
    this.engine.counters.questions++;
    this.control.beginCommand('Query', new LazyText(payload, start), rowSink);
    return this.runStatement(stmt, [], (schema) => this.compiled.get(null, stmt, schema, this.db));
  }

  async prepare(sql: string): Promise<PreparedStatement> {
    const parsed = parseStatement(sql);
    if (parsed.stmt.kind === 'kill') throw SqlError.of('ER_UNSUPPORTED_PS');
    await authorize(this.requester(), parsed.stmt);
    return PreparedStatementImpl.create(this, parsed, sql);
  }

  async fieldList(table: string): Promise<ResultColumn[]> {
    if (this.db === null) throw SqlError.of('ER_NO_DB_ERROR');
    await authorizeTable(this.requester(), 'SELECT', this.db, table);
    return fieldListColumns(requireTable(await this.schema(), this.db, table));
  }

  async reset(): Promise<void> {
    this.txc.rollback();
    this.userVariables.clear();
    this.variables.reset();
    this.compiled.clear();
    this.diagnostics.clear();
    this.resetCounters();
    this.settings.refresh();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.control.interrupt('killed');
    this.txc.rollback();
    this.engine.unregister(this.connectionId);
  }

  waitTimeout(): number {
    return this.control.waitTimeout();
  }

  // --- statement execution ---------------------------------------------------------------------

  /** PreparedHost: COM_STMT_EXECUTE. runStatement ends the command (no async wrapper here). */
  executePrepared(stmt: Statement, params: readonly Value[], planner: Planner, sql: string, rowSink?: RowSink): Promise<ExecResult> {
    this.engine.counters.questions++;
    this.control.beginCommand('Execute', sql, rowSink);
    return this.runStatement(stmt, params, planner);
  }

  /** One statement and its bookkeeping, then the end of the command its caller began (one async frame for both). */
  private async runStatement(stmt: Statement, params: readonly Value[], planner: Planner): Promise<ExecResult> {
    try {
      const keepDiagnostics = (stmt.kind === 'show' && (stmt.target === 'warnings' || stmt.target === 'errors'))
        || (stmt.kind === 'select' && stmt.from === null);
      if (!keepDiagnostics) this.diagnostics.clear();
      const before = this.diagnostics.warningCount();
      const started = performance.now();
      let errno: number | undefined;
      let done: ExecResult | undefined;
      this.currentPlan = undefined;
      this.control.begin(stmt, stmt.kind === 'select' ? this.info : null);
      try {
        if (hasPrivilegeChecks(this.user)) await authorize(this.requester(), stmt);
        rejectInfoSchemaWrite(stmt, this.db, this.user, this.host);
        const run = (p: Planner): Promise<ExecResult> => this.dispatch(stmt, params, p);
        const result = await aroundStatement(this.hooksEnv, stmt, params, planner, run);
        const counting = afterStatement(this.hooksEnv, stmt, result, run);
        if (counting !== undefined) await counting;
        done = result;
        this.lastRowCount = result.kind === 'ok' ? result.affectedRows : -1n;
        const warnings = this.diagnostics.warningCount() - before;
        return result.warnings === warnings ? result : { ...result, warnings };
      } catch (err) {
        errno = isSqlError(err) ? err.errno : 1105;
        recordFailure(this.event(stmt), err);
        throw err;
      } finally {
        this.control.end();
        const ms = performance.now() - started;
        this.engine.observer.statement({ kind: stmt.kind, ms, ...(errno !== undefined ? { errno } : {}) });
        const limit = this.variables.peek('long_query_time');
        if (typeof limit === 'number' && ms >= limit * 1000) noteSlow(this.event(stmt), { ms, result: done, errno, plan: this.currentPlan });
      }
    } finally {
      this.control.endCommand();
    }
  }

  private dispatch(stmt: Statement, params: readonly Value[], planner: Planner): Promise<ExecResult> {
    if (!isDataStatement(stmt)) return this.dispatchOther(stmt, params);
    return this.runData(planner, params, isCurrentRead(stmt), prefetchFor(stmt, this.engine, planner, params));
  }

  private async dispatchOther(stmt: Statement, params: readonly Value[]): Promise<ExecResult> {
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
        return visibleShowResult(stmt, await runShow(stmt, this.showHost(params)), this.requester());
      case 'noop':
        return okResult();
      case 'kill':
        return runKill(stmt, this.control, this.evalContext(params), (id) => this.engine.anyKillTarget(id));
      case 'account':
        return runAccount(stmt.stmt, this.accountHost());
      case 'admin':
        return runAdmin(stmt.stmt, {
          catalog: this.engine.catalog, currentDatabase: () => this.db, run: (body) => this.txc.run(body), cancel: this.control.cancel,
        });
      default:
        throw SqlError.of('ER_NOT_SUPPORTED_YET', stmt.kind);
    }
  }

  private runData(planner: Planner, params: readonly Value[], currentRead: boolean, prefetch?: Prefetch): Promise<ExecResult> {
    const mark = this.diagnostics.mark();
    // Not async (a synchronous throw meets txc.run's try block like a rejection).
    return this.txc.run((txn, readOnly) => {
      this.diagnostics.restore(mark);
      const catalog = this.engine.catalog;
      const cached = catalog.cachedSchemaFor(txn);
      if (cached !== undefined) return this.runPlanned(cached, txn, readOnly, planner, params);
      return catalog.schemaFor(txn).then((schema) => this.runPlanned(schema, txn, readOnly, planner, params));
    }, currentRead, prefetch);
  }

  /** The data statement planned against `schema` and run in `txn`. */
  private runPlanned(schema: Schema, txn: Txn, readOnly: boolean, planner: Planner, params: readonly Value[]): Promise<ExecResult> {
    this.engine.noteSchema(schema);
    const compiled = planner(schema);
    this.currentPlan = compiled.plan;
    if (readOnly && !compiled.readOnly) throw SqlError.of('ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION');
    txn.limitWrites(this.control.txnMaxBytes(), 'shale_txn_max_bytes');
    const ctx = new StatementExecContext(this, params, txn, schema, this.engine.catalog, this.opts.foundRows, this.control);
    return compiled.run(ctx);
  }

  private event(stmt: Statement | null): StatementEvent {
    const { engine, diagnostics, connectionId, user, db, info: sql } = this;
    return { engine, diagnostics, connectionId, user, db, sql, stmt };
  }

  private get info(): string | null {
    return this.control.info;
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
      indexProgress: this.control.backfillProgress(),
      runPlanned: (planner) => this.runData(planner, [], false),
    };
  }

  /** Who runs the statement, for privilege checks (privileges.ts). */
  private requester(): Requester {
    return { user: this.user, host: this.host, currentDatabase: this.db, users: this.engine.users };
  }

  private accountHost(): AccountHost {
    return accountHostFor(this.requester(), this.txc, this.diagnostics, this.engine.catalog);
  }

  private showHost(params: readonly Value[]): ShowHost {
    return {
      schema: () => this.schema(),
      currentDatabase: () => this.db,
      evalContext: () => this.evalContext(params),
      variableRows: (global) => this.variableRows(global),
      statusRows: (global) => this.engine.statusRows(global ? undefined : this.opts),
      diagnostics: this.diagnostics,
      processList: () => this.control.visibleProcesses(),
      user: this.user,
      withStats: (body) => this.txc.run((txn) => body(tableStatsReader(txn))),
      visibility: () => requesterVisibility(this.requester()),
    };
  }

  processInfo(): ProcessInfo {
    return this.control.processInfo({ user: this.user, host: this.host, db: this.db });
  }

  variableRows(global: boolean): Array<readonly [string, string]> {
    return variableRowsOf(this.variables, global, (name) => this.computedVariable(name));
  }

  variableChanged(name: string): void {
    if (name === 'sql_mode' || name === 'time_zone' || name === 'autocommit') this.settings.refresh();
  }

  async autocommitChanged(on: boolean): Promise<void> {
    this.settings.autocommit = on;
    if (on && this.txc.inTransaction()) await this.txc.commit();
  }

  setNextReadOnly(readOnly: boolean): void {
    this.txc.setNextReadOnly(readOnly);
  }

  private computedVariable(name: string): Value | undefined {
    return computedVariable(name, this.diagnostics, this.lastInsert);
  }

  // --- ContextHost -----------------------------------------------------------------------------

  readVariable(scope: VarScope, name: string): Value {
    if (scope === 'user') return this.userVariables.get(name.toLowerCase()) ?? null;
    const computed = scope === 'global' ? undefined : this.computedVariable(canonicalVariableName(name));
    return computed ?? this.variables.read(scope, name);
  }
  currentUser(): string {
    return `${this.user}@${this.host}`;
  }
  strictMode(): boolean {
    return this.settings.strict;
  }
  timeZone(): string {
    return this.settings.timeZone;
  }
  warn(code: number, message: string): void {
    this.diagnostics.add('Warning', code, message);
  }
}
