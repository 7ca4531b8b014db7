/** What sessions see of their engine (internal; the server sees only `Engine`). */
import type { Logger } from 'pino';
import type { Catalog, Schema } from '../../catalog/index.js';
import type { TxnStore } from '../../txn/index.js';
import type { StatementCache } from '../parse/index.js';
import type { EngineObserver } from './observer.js';
import type { RetryGate } from './retry-gate.js';
import type { KillTarget } from './kill.js';
import type { ProcessInfo } from './show-server.js';
import type { SessionOptions } from './types.js';
import type { UserRegistry } from './users.js';
import type { GlobalVariables } from './variable-store.js';

export interface EngineCounters {
  questions: number;
  slowQueries: number;
  connections: number;
  statementRetries: number;
}

export interface EngineCore {
  readonly serverVersion: string;
  readonly txns: TxnStore;
  readonly catalog: Catalog;
  readonly statements: StatementCache;
  readonly globals: GlobalVariables;
  readonly logger: Logger;
  readonly counters: EngineCounters;
  readonly retryGate: RetryGate;
  readonly observer: EngineObserver;
  /** Accounts and grants (privileges.ts; `users.hasGlobalPrivilege(user, host, 'SUPER')` for KILL). */
  readonly users: UserRegistry;
  /** Remembers the newest schema a session used (for Open_tables, and prefetch guesses). */
  noteSchema(schema: Schema): void;
  /** The newest schema noteSchema saw (null before the first statement). */
  newestSchema(): Schema | null;
  /** This process's sessions. */
  processList(): ProcessInfo[];
  /** Every session of the server: this process's and its peers' (`--workers`), by id. */
  allProcesses(): Promise<ProcessInfo[]>;
  /** The session with this connection id in this process (KILL), if any. */
  killTarget(connectionId: number): KillTarget | undefined;
  /** Like killTarget, in this process or one of its peers. */
  anyKillTarget(connectionId: number): Promise<KillTarget | undefined>;
  /** SHOW STATUS rows; with the session's options, its own values (Ssl_cipher ...) too. */
  statusRows(session?: SessionOptions): Array<readonly [string, string]>;
  unregister(connectionId: number): void;
}
