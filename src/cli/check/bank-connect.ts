/**
 * Connections for the bank checker: a narrow SqlConnection over mysql2/promise (so the transfer
 * logic can be tested with a fake), and connecting with retries and backoff while the server may
 * be restarting or a node behind a proxy may have died.
 */
import mysql from 'mysql2/promise';
import { classifyError } from './bank-errors.js';
import type { BankTarget } from './bank-options.js';

/** What the checker needs from a connection. */
export interface SqlConnection {
  /** Runs one statement (text protocol); resolves to the rows or the OK result. */
  query(sql: string, values?: readonly unknown[]): Promise<unknown>;
  /** Closes the socket at once (no COM_QUIT, no waiting). */
  close(): void;
}

export interface ConnectSettings {
  readonly target: BankTarget;
  /** Connect to this database (undefined: none). */
  readonly database?: string;
  /** Per-statement and connect timeout, ms. */
  readonly timeoutMs: number;
}

/** Opens one connection; throws what mysql2 throws. */
export async function connectOnce(s: ConnectSettings): Promise<SqlConnection> {
  const conn = await mysql.createConnection({
    host: s.target.host,
    port: s.target.port,
    user: s.target.user,
    password: s.target.password,
    ...(s.database !== undefined ? { database: s.database } : {}),
    connectTimeout: s.timeoutMs,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  // A connection that dies while idle emits 'error'; the next statement reports it.
  conn.on('error', () => undefined);
  return {
    async query(sql: string, values?: readonly unknown[]): Promise<unknown> {
      const [result] = await conn.query({ sql, values: values === undefined ? undefined : [...values], timeout: s.timeoutMs });
      return result;
    },
    close(): void {
      conn.destroy();
    },
  };
}

export interface RetryPolicy {
  /** Give up (return undefined) once Date.now() passes this. */
  readonly deadline: number;
  /** Called with the error code of each failed attempt. */
  readonly onError: (code: string, message: string) => void;
  /** Give up at once when the server refuses with an error number (e.g. 1045 access denied). */
  readonly giveUpOnServerError?: boolean;
  /** Stop early (e.g. the run ended while waiting). */
  readonly cancelled?: () => boolean;
  readonly connect?: (s: ConnectSettings) => Promise<SqlConnection>;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const FIRST_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 1000;

/**
 * Connects, retrying with exponential backoff (50 ms doubling to 1 s, with jitter) until it
 * succeeds or the deadline passes. Returns undefined if it never connected.
 */
export async function connectWithRetry(s: ConnectSettings, p: RetryPolicy): Promise<SqlConnection | undefined> {
  const open = p.connect ?? connectOnce;
  const wait = p.sleep ?? sleep;
  let backoff = FIRST_BACKOFF_MS;
  for (;;) {
    if (p.cancelled?.() === true) return undefined;
    try {
      return await open(s);
    } catch (err) {
      const info = classifyError(err);
      p.onError(info.code, info.message);
      if (p.giveUpOnServerError === true && info.errno !== undefined) return undefined;
    }
    const left = p.deadline - Date.now();
    if (left <= 0) return undefined;
    await wait(Math.min(left, backoff / 2 + Math.random() * (backoff / 2)));
    backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
  }
}
