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
import type { ProcessInfo } from './show-server.js';
import { buildVariableDefs } from './system-variables.js';
import type { Engine, ServerStats, Session, SessionOptions, UserAuth } from './types.js';
import { UserRegistry } from './users.js';
import { GlobalVariables } from './variable-store.js';
import { serverVersion } from './version.js';

export interface EngineOptions {
  /** Password of `root` (default empty). Only its hashes are kept. */
  rootPassword?: string;
  logger: Logger;
  /** Reported by @@port (the server's listening port); default 3306. */
  port?: number;
  /** Told about statements, transactions and connections (metrics); default: ignores all. */
  observer?: EngineObserver;
}

export type ClosableEngine = Engine & { close(): Promise<void> };

export async function createEngine(txns: TxnStore, opts: EngineOptions): Promise<ClosableEngine> {
  const catalog = await Catalog.open(txns);
  const engine = new EngineImpl(txns, catalog, opts);
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
  private readonly users: UserRegistry;
  private readonly sessions = new Map<number, SessionImpl>();
  private readonly startedAt = Date.now();
  private latestSchema: Schema | null = null;

  constructor(
    readonly txns: TxnStore,
    readonly catalog: Catalog,
    opts: EngineOptions,
  ) {
    this.logger = opts.logger.child({ module: 'sql' });
    this.observer = opts.observer ?? NO_OBSERVER;
    this.users = new UserRegistry(opts.rootPassword ?? '');
    const defs = buildVariableDefs({ serverVersion: this.serverVersion, hostname: hostname(), port: opts.port ?? 3306 });
    this.globals = new GlobalVariables(defs);
  }

  async lookupUser(user: string, host: string): Promise<UserAuth | null> {
    return this.users.lookup(user, host);
  }

  async openSession(opts: SessionOptions): Promise<Session> {
    const db = opts.database;
    if (db !== undefined && db !== '' && db !== INFORMATION_SCHEMA) {
      const schema = await this.catalog.latestSchema();
      if (schema.database(db) === undefined) throw SqlError.of('ER_BAD_DB_ERROR', db);
    }
    const session = new SessionImpl(this, db === '' ? { ...opts, database: undefined } : opts);
    this.sessions.set(opts.connectionId, session);
    this.counters.connections++;
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

  noteSchema(schema: Schema): void {
    if (this.latestSchema === null || schema.version > this.latestSchema.version) this.latestSchema = schema;
  }

  processList(): ProcessInfo[] {
    return [...this.sessions.values()].map((s) => s.processInfo());
  }

  statusRows(): Array<readonly [string, string]> {
    const s = this.stats();
    return [
      ['Aborted_clients', '0'],
      ['Aborted_connects', '0'],
      ['Connections', String(this.counters.connections)],
      ['Open_tables', String(s.openTables)],
      ['Queries', String(s.questions)],
      ['Questions', String(s.questions)],
      ['Slow_queries', String(s.slowQueries)],
      ['Threads_connected', String(s.threads)],
      ['Threads_running', '1'],
      ['Uptime', String(s.uptimeSeconds)],
    ];
  }

  unregister(connectionId: number): void {
    this.sessions.delete(connectionId);
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
