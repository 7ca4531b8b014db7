/**
 * The SQL engine behind one server: catalog, accounts, system variables, the statement cache
 * shared by all sessions, the connection registry and status counters.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { Catalog, type Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { TxnStore } from '../../txn/index.js';
import { StatementCache } from '../parse/index.js';
import type { EngineCore, EngineCounters } from './engine-core.js';
import { NO_OBSERVER, type EngineObserver } from './observer.js';
import { RetryGate } from './retry-gate.js';
import { SessionImpl } from './session.js';
import { INFORMATION_SCHEMA } from './show-schema.js';
import type { KillTarget } from './kill.js';
import type { ProcessPeers } from './peers.js';
import type { ProcessInfo } from './show-server.js';
import { declareVariableKinds } from './system-variable-kinds.js';
import { buildVariableDefs } from './system-variables.js';
import type { Engine, ServerStats, Session, SessionOptions, UserAuth } from './types.js';
import { UserRegistry } from './users.js';
import { releaseSessionLocks } from './async-calls.js';
import { authorizeDatabase } from './privileges.js';
import { GlobalVariables } from './variable-store.js';
import { serverVersion } from './version.js';

export interface EngineOptions {
  /** Password of 'root'@'%' on the first start only (the store holds no account yet; default empty). Only its hashes are kept. */
  rootPassword?: string;
  logger: Logger;
  /** Reported by @@port (the server's listening port); default 3306. */
  port?: number;
  /** Told about statements, transactions and connections (metrics); default: ignores all. */
  observer?: EngineObserver;
  /** Initial @@global.long_query_time in seconds (`--slow-query-ms`); default 10 as in MySQL. */
  longQueryTime?: number;
  /** TLS is configured on the listener (have_ssl = YES). */
  tls?: boolean;
  /** Initial @@global.require_secure_transport (needs `tls`). */
  requireSecureTransport?: boolean;
  /** The other processes of this server (`--workers`), for KILL and PROCESSLIST; default none. */
  peers?: ProcessPeers;
}

/**
 * What the process hosting the engine sees: the server's Engine, close(), and this process's
 * sessions as it tells them to its `--workers` peers (peers.ts).
 */
export type ClosableEngine = Engine & {
  close(): Promise<void>;
  processList(): ProcessInfo[];
  killTarget(connectionId: number): KillTarget | undefined;
};

export async function createEngine(txns: TxnStore, opts: EngineOptions): Promise<ClosableEngine> {
  const catalog = await Catalog.open(txns);
  const engine = new EngineImpl(txns, catalog, opts);
  await engine.users.bootstrap(opts.rootPassword ?? '');
  engine.logger.info({ event: 'engine-started', version: engine.serverVersion }, 'SQL engine ready');
  return engine;
}

class EngineImpl implements ClosableEngine, EngineCore {
  readonly serverVersion = serverVersion();
  readonly statements = new StatementCache();
  readonly globals: GlobalVariables;
  readonly logger: Logger;
  readonly counters: EngineCounters = { questions: 0, slowQueries: 0, connections: 0, statementRetries: 0 };
  readonly retryGate = new RetryGate();
  readonly observer: EngineObserver;
  readonly users: UserRegistry;
  private readonly sessions = new Map<number, SessionImpl>();
  private readonly startedAt = Date.now();
  private latestSchema: Schema | null = null;
  private readonly peers: ProcessPeers | undefined;

  constructor(
    readonly txns: TxnStore,
    readonly catalog: Catalog,
    opts: EngineOptions,
  ) {
    this.logger = opts.logger.child({ module: 'sql' });
    this.observer = opts.observer ?? NO_OBSERVER;
    this.peers = opts.peers;
    this.users = new UserRegistry(txns);
    const defs = buildVariableDefs({
      serverVersion: this.serverVersion,
      hostname: hostname(),
      port: opts.port ?? 3306,
      tls: opts.tls === true,
      requireSecureTransport: opts.requireSecureTransport === true,
    });
    declareVariableKinds(defs);
    this.globals = new GlobalVariables(defs);
    if (opts.longQueryTime !== undefined) this.globals.values.set('long_query_time', opts.longQueryTime);
  }

  async lookupUser(user: string, host: string): Promise<UserAuth | null> {
    return this.users.lookup(user, host);
  }

  async openSession(opts: SessionOptions): Promise<Session> {
    if (opts.tls === undefined && this.globals.values.get('require_secure_transport') === 1n) {
      throw SqlError.of('ER_SECURE_TRANSPORT_REQUIRED');
    }
    const db = opts.database;
    if (db !== undefined && db !== '' && db !== INFORMATION_SCHEMA) {
      const schema = await this.catalog.latestSchema();
      if (schema.database(db) === undefined) throw SqlError.of('ER_BAD_DB_ERROR', db);
      await authorizeDatabase({ user: opts.user, host: opts.host, currentDatabase: null, users: this.users }, db);
    }
    const session = new SessionImpl(this, db === '' ? { ...opts, database: undefined } : opts);
    this.sessions.set(opts.connectionId, session);
    this.counters.connections++;
    this.observer.connections(this.sessions.size);
    return session;
  }

  stats(): ServerStats {
    return {
      uptimeSeconds: Math.floor((Date.now() - this.startedAt) / 1000),
      threads: this.sessions.size,
      questions: this.counters.questions,
      slowQueries: this.counters.slowQueries,
      openTables: this.openTables(),
    };
  }

  /** The newest schema a statement of this engine ran with (null before the first). */
  newestSchema(): Schema | null {
    return this.latestSchema;
  }

  noteSchema(schema: Schema): void {
    if (this.latestSchema !== null && schema.version <= this.latestSchema.version) return;
    this.latestSchema = schema;
    this.observer.schemaVersion(schema.version);
  }

  processList(): ProcessInfo[] {
    return [...this.sessions.values()].map((s) => s.processInfo());
  }

  killTarget(connectionId: number): KillTarget | undefined {
    return this.sessions.get(connectionId)?.control;
  }

  async allProcesses(): Promise<ProcessInfo[]> {
    const local = this.processList();
    if (this.peers === undefined) return local;
    return [...local, ...(await this.peers.processList())].sort((a, b) => a.id - b.id);
  }

  async anyKillTarget(connectionId: number): Promise<KillTarget | undefined> {
    return this.killTarget(connectionId) ?? this.peers?.killTarget(connectionId);
  }

  maxConnections(): number {
    const v = this.globals.values.get('max_connections');
    return typeof v === 'bigint' && v > 1n ? Number(v) : 1;
  }

  statusRows(session?: SessionOptions): Array<readonly [string, string]> {
    const s = this.stats();
    return [
      ['Aborted_clients', '0'],
      ['Aborted_connects', '0'],
      ['Connections', String(this.counters.connections)],
      ['Open_tables', String(s.openTables)],
      ['Queries', String(s.questions)],
      ['Questions', String(s.questions)],
      ['Slow_queries', String(s.slowQueries)],
      ['Ssl_cipher', session?.tls?.cipher ?? ''],
      ['Ssl_version', session?.tls?.version ?? ''],
      ['Threads_connected', String(s.threads)],
      ['Threads_running', '1'],
      ['Uptime', String(s.uptimeSeconds)],
    ];
  }

  unregister(connectionId: number): void {
    this.sessions.delete(connectionId);
    void releaseSessionLocks(this.txns, connectionId);
    this.observer.connections(this.sessions.size);
  }

  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    await Promise.all(open.map((s) => s.close()));
    this.logger.info({ event: 'engine-closed', sessions: open.length }, 'SQL engine closed');
  }

  private openTables(): number {
    const schema = this.latestSchema;
    if (schema === null) return 0;
    return schema.databases().reduce((n, db) => n + schema.tables(db.name).length, 0);
  }
}
