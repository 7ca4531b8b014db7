/**
 * The command and statement a session is running, as KILL, PROCESSLIST and the executors see
 * it: Command / Time / Info, the statement's Cancellation (KILL QUERY, KILL CONNECTION,
 * max_execution_time), its State text (index backfill progress), and the per-statement limits
 * read from the session's variables.
 *
 * max_execution_time (session variable, or the MAX_EXECUTION_TIME(N) hint right after SELECT,
 * which wins) applies to SELECT statements only, as in MySQL; KILL QUERY interrupts any
 * statement that reaches a check (executor batches, index backfill batches).
 */
import type { BackfillProgress, Schema } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import { Cancellation, type InterruptReason } from '../exec/index.js';
import { normalizeStatement, statementHints, type Statement } from '../parse/index.js';
import type { RowSink, Value } from '../../types/index.js';
import type { LazyText } from '../../util/index.js';
import { backfillReporter } from './backfill-progress.js';
import type { EngineCore } from './engine-core.js';
import { infoSchemaRows } from './info-schema-rows.js';
import { infoSchemaSource } from './info-schema-source.js';
import type { KillTarget } from './kill.js';
import type { ProcessInfo } from './show-server.js';
import type { SessionVariables } from './variable-store.js';

/** The session a StatementControl belongs to. */
export interface Owner {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
}

/** Closes the session's connection (the server's side of KILL CONNECTION). */
export type Disconnect = (afterReply: boolean) => void;

const IDLE = new Cancellation(0);

export class StatementControl implements KillTarget {
  private token: Cancellation = IDLE;
  private stateText: string | null = null;
  private killedConnection = false;
  private command = 'Sleep';
  /** The running command's text; a LazyText until someone reads it (a large INSERT read from its bytes). */
  private sql: string | LazyText | null = null;
  private since = Date.now();
  /** The last text shownText() ran on and its result (a prepared statement repeats its text). */
  private shownFor: string | LazyText | null = null;
  private shown: string | null = null;
  /** MAX_EXECUTION_TIME hint of each SELECT text seen lately (the texts a client's prepared statements repeat). */
  private readonly hintMs = new Map<string, number | undefined>();

  constructor(
    private readonly engine: EngineCore,
    private readonly owner: Owner,
    private readonly variables: SessionVariables,
    private readonly disconnect: Disconnect | undefined,
  ) {}

  get connectionId(): number {
    return this.owner.connectionId;
  }

  /** The account name the session runs as (KILL of another user's thread needs SUPER). */
  get user(): string {
    return this.owner.user;
  }

  /** Without PROCESS, an account sees only its own connections (SHOW PROCESSLIST, I_S.PROCESSLIST). */
  async visibleProcesses(): Promise<ProcessInfo[]> {
    const all = await this.engine.allProcesses();
    if (await this.holds('PROCESS')) return all;
    return all.filter((p) => p.user === this.owner.user);
  }

  /** SUPER or CONNECTION_ADMIN: may KILL other accounts' connections. */
  async mayKillAny(): Promise<boolean> {
    return (await this.holds('SUPER')) || this.holds('CONNECTION_ADMIN');
  }

  /** The text of the command running now (PROCESSLIST Info), null when idle. */
  get info(): string | null {
    const sql = this.sql;
    if (sql === null) return null;
    if (sql !== this.shownFor) {
      this.shownFor = sql;
      this.shown = shownText(typeof sql === 'string' ? sql : sql.text);
    }
    return this.shown;
  }

  beginCommand(command: string, sql: string | LazyText, rowSink?: RowSink): void {
    this.command = command;
    this.sql = sql;
    this.since = Date.now();
    this.rowSink = rowSink;
  }

  endCommand(): void {
    this.command = 'Sleep';
    this.sql = null;
    this.since = Date.now();
    this.rowSink = undefined;
  }

  /** Where the running command's large result sets go (the client's socket), if anywhere. */
  rowSink: RowSink | undefined;

  processInfo(who: { readonly user: string; readonly host: string; readonly db: string | null }): ProcessInfo {
    return {
      id: this.connectionId,
      ...who,
      command: this.killedConnection ? 'Killed' : this.command,
      time: Math.floor((Date.now() - this.since) / 1000),
      state: this.command === 'Sleep' ? '' : (this.stateText ?? 'executing'),
      info: this.info,
    };
  }

  /** The running statement's token (an idle one between statements). */
  get cancel(): Cancellation {
    return this.token;
  }

  /** True once KILL CONNECTION targeted this session. */
  get killed(): boolean {
    return this.killedConnection;
  }

  /** Starts a statement: a fresh token, with a deadline for SELECT under max_execution_time. */
  begin(stmt: Statement, sql: string | null): Cancellation {
    this.stateText = null;
    this.token = new Cancellation(stmt.kind === 'select' ? this.selectTimeoutMs(sql) : 0);
    if (this.killedConnection) this.token.interrupt('killed');
    return this.token;
  }

  end(): void {
    this.token = IDLE;
    this.stateText = null;
  }

  /** Interrupts the running statement; a no-op between statements. */
  interrupt(reason: InterruptReason): void {
    if (this.token !== IDLE) this.token.interrupt(reason);
  }

  killQuery(): void {
    this.engine.logger.info({ event: 'kill', conn: this.connectionId, what: 'query', running: this.token !== IDLE }, 'KILL QUERY');
    this.interrupt('killed');
  }

  killConnection(afterReply: boolean): void {
    this.engine.logger.info({ event: 'kill', conn: this.connectionId, what: 'connection', running: this.token !== IDLE }, 'KILL CONNECTION');
    this.killedConnection = true;
    if (!afterReply) this.interrupt('killed');
    this.disconnect?.(afterReply);
  }

  /** @@shale_txn_max_bytes: the write-buffer limit of the session's transactions (0 = none). */
  txnMaxBytes(): number {
    const v = this.variables.peek('shale_txn_max_bytes');
    return typeof v === 'bigint' && v > 0n ? Number(v) : Infinity;
  }

  /** @@wait_timeout in seconds (at least 1). */
  waitTimeout(): number {
    const v = this.variables.peek('wait_timeout');
    return typeof v === 'bigint' && v > 1n ? Number(v) : 1;
  }

  virtualRows(table: string, schema: Schema, txn: Txn): Promise<Value[][]> {
    const { engine, variables, owner } = this;
    const parts = { engine, variables, user: owner.user, host: owner.host, processList: () => this.visibleProcesses() };
    return infoSchemaRows(table, infoSchemaSource(parts, schema, txn));
  }

  /** CREATE INDEX progress: State text, throttled log lines, and KILL QUERY between batches. */
  backfillProgress(): BackfillProgress {
    return backfillReporter({
      logger: this.engine.logger,
      connectionId: this.connectionId,
      setState: (text) => {
        this.stateText = text;
      },
      check: () => this.token.check(),
    });
  }

  private holds(priv: string): Promise<boolean> {
    return this.engine.users.hasGlobalPrivilege(this.owner.user, this.owner.host, priv);
  }

  private hintOf(sql: string): number | undefined {
    const known = this.hintMs.get(sql);
    if (known !== undefined || this.hintMs.has(sql)) return known;
    const hint = statementHints(sql);
    const ms = hint.keyword === 'SELECT' ? hint.maxExecutionTime : undefined;
    if (sql.length > HINT_TEXT_MAX) return ms;
    if (this.hintMs.size >= HINT_TEXTS) this.hintMs.clear();
    this.hintMs.set(sql, ms);
    return ms;
  }

  private selectTimeoutMs(sql: string | null): number {
    const hinted = sql === null ? undefined : this.hintOf(sql);
    if (hinted !== undefined) return hinted;
    const v = this.variables.peek('max_execution_time');
    return typeof v === 'bigint' ? Number(v) : 0;
  }
}

/** SELECT texts whose hints a session remembers (forgotten all at once when full). */
const HINT_TEXTS = 64;
/** Longer texts are not remembered (their hints are read again: only the text's start is looked at). */
const HINT_TEXT_MAX = 2048;

/** Statements that may carry a password are shown with every literal replaced by `?`. */
const SECRET_BEARING = /\b(IDENTIFIED|PASSWORD)\b/i;

export function shownText(sql: string | null): string | null {
  return sql !== null && SECRET_BEARING.test(sql) ? normalizeStatement(sql) : sql;
}
