/**
 * The contract between `server/` (wire protocol) and the SQL engine. The server knows nothing
 * about plans, catalogs or KV: it authenticates, opens a Session per connection and turns
 * ExecResults and SqlErrors into packets.
 */
import type { ExecResult, ResultColumn, RowSink, Value } from '../../types/index.js';

export type { ExecResult, OkResult, ResultColumn, RowsResult, RowSink } from '../../types/index.js';
/** COM_QUERY payloads shorter than this (bytes after the command byte) are never read by Session.queryBytes. */
export { BULK_MIN_CHARS as BULK_QUERY_MIN_BYTES } from '../parse/index.js';

/** A server-side prepared statement (COM_STMT_PREPARE). Parsed and planned once. */
export interface PreparedStatement {
  /** Number of `?` placeholders outside strings and comments. */
  readonly paramCount: number;
  /** Result columns, empty for statements without a result set. */
  readonly columns: readonly ResultColumn[];
  /**
   * Runs the statement. `params` has exactly `paramCount` values as decoded from the binary
   * protocol (LONGLONG -> bigint, DOUBLE -> number, strings -> string, BLOB -> Uint8Array,
   * DATETIME -> DateTime, NULL -> null); the engine coerces them to the context type.
   */
  execute(params: readonly Value[], rowSink?: RowSink): Promise<ExecResult>;
  close(): void;
}

export interface SessionOptions {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  /** Database from the handshake, if any. */
  readonly database?: string;
  /** Collation id from the handshake (e.g. 45, 224, 255). */
  readonly collationId: number;
  /** CLIENT_FOUND_ROWS: UPDATE reports matched rather than changed rows. */
  readonly foundRows: boolean;
  /** Set for a TLS connection (Ssl_cipher / Ssl_version); require_secure_transport refuses others. */
  readonly tls?: { readonly cipher: string; readonly version: string } | undefined;
  /** CLIENT_INTERACTIVE: the session's wait_timeout starts as @@global.interactive_timeout. */
  readonly interactive?: boolean;
  /** Closes the connection on KILL CONNECTION (after the current reply when `afterReply`). */
  readonly disconnect?: (afterReply: boolean) => void;
}

/** Per-connection SQL state. Methods are never called concurrently for one session. */
export interface Session {
  readonly connectionId: number;
  /** True while an explicit (or autocommit=0) transaction is open: the IN_TRANS status flag. */
  inTransaction(): boolean;
  /** @@autocommit: the AUTOCOMMIT status flag. */
  autocommit(): boolean;
  currentDatabase(): string | null;
  /** COM_INIT_DB. Throws ER_BAD_DB_ERROR. */
  useDatabase(db: string): Promise<void>;
  /** Splits a COM_QUERY string into statements (`;` outside strings/comments); empty pieces dropped. */
  splitStatements(sql: string): string[];
  /** Runs one statement of a COM_QUERY. Throws SqlError. */
  query(sql: string, rowSink?: RowSink): Promise<ExecResult>;
  /** COM_QUERY from its bytes when it is a large literal-rows INSERT (no decoded text); else undefined: decode and query(). */
  queryBytes(payload: Uint8Array, start: number, rowSink?: RowSink): Promise<ExecResult> | undefined;
  /** COM_STMT_PREPARE. Throws SqlError (ER_UNSUPPORTED_PS for statements that cannot be prepared). */
  prepare(sql: string): Promise<PreparedStatement>;
  /** COM_FIELD_LIST: the columns of `table` in the current database, with defaultText set. */
  fieldList(table: string): Promise<ResultColumn[]>;
  /** COM_RESET_CONNECTION: roll back, drop user variables and session variable changes; keep db. */
  reset(): Promise<void>;
  /** Connection closed: roll back any open transaction and free resources. Idempotent. */
  close(): Promise<void>;
  /** @@session.wait_timeout in seconds: the server closes the connection after that long idle (ERR 4031). */
  waitTimeout(): number;
}

/** Stored credentials of an account (never the plaintext password). */
export interface UserAuth {
  /** SHA1(SHA1(password)), or empty for an empty password. */
  readonly nativeHash: Uint8Array;
  /** SHA256(SHA256(password)), or empty for an empty password. */
  readonly sha2Hash: Uint8Array;
}

export interface ServerStats {
  readonly uptimeSeconds: number;
  readonly threads: number;
  readonly questions: number;
  readonly slowQueries: number;
  readonly openTables: number;
}

/** What the server needs from the engine. */
export interface Engine {
  /** `8.0.11-ShaleDB-<version>` */
  readonly serverVersion: string;
  /** Credentials for `user` connecting from `host`, or null if no such account. */
  lookupUser(user: string, host: string): Promise<UserAuth | null>;
  /** Opens a session; throws ER_BAD_DB_ERROR if `opts.database` does not exist. */
  openSession(opts: SessionOptions): Promise<Session>;
  /** Counts a statement for COM_STATISTICS / status. */
  stats(): ServerStats;
  /** @@global.max_connections: connections beyond it are refused with 1040 (counted per process). */
  maxConnections(): number;
}
