/**
 * The one connection `shale import` runs the dump over: a narrow interface over mysql2/promise
 * (text protocol) so the runner can be tested with a fake.
 *
 * Statements are sent as the file's bytes. mysql2 encodes a query string with the connection's
 * character set, so the connection is opened as `binary` (each char code 0-255 is one byte) and the
 * statement bytes are handed over as a latin1 string; `SET NAMES utf8mb4` then tells the server
 * how to read them (a dump sets its own character set in its first statements anyway).
 */
import mysql from 'mysql2/promise';
import type { ImportTarget } from './import-options.js';

export interface DumpConnection {
  /** Runs one statement; resolves to the number of rows it affected (0 for a result set). */
  run(sql: Buffer): Promise<number>;
  close(): Promise<void>;
}

/** What went wrong with a statement or the connection. */
export interface SqlFailure {
  /** MySQL error number (server errors only). */
  readonly errno?: number;
  /** ER_… name, or a Node error code such as ECONNREFUSED. */
  readonly code?: string;
  readonly sqlState?: string;
  readonly message: string;
  /** The connection is unusable (lost, refused): the import cannot go on. */
  readonly fatal: boolean;
}

/** Rows affected by a mysql2 query result (an OK packet), 0 for anything else. */
export function affectedRowsOf(result: unknown): number {
  if (typeof result === 'object' && result !== null && 'affectedRows' in result && typeof result.affectedRows === 'number') {
    return result.affectedRows;
  }
  return 0;
}

/** Undoes mysql2 decoding server text with the binary (latin1) character set. */
function utf8Text(s: string): string {
  return /^[\u0000-\u00ff]*$/.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
}

function field(err: object, key: string): unknown {
  const value: unknown = Reflect.get(err, key);
  return value;
}

/** Classifies what mysql2 threw. */
export function describeSqlError(err: unknown): SqlFailure {
  if (typeof err !== 'object' || err === null) return { message: String(err), fatal: true };
  const errno = field(err, 'errno');
  const code = field(err, 'code');
  const sqlState = field(err, 'sqlState');
  const sqlMessage = field(err, 'sqlMessage');
  const message = typeof sqlMessage === 'string' ? utf8Text(sqlMessage) : err instanceof Error ? err.message : String(err);
  const serverError = typeof errno === 'number' && typeof sqlState === 'string';
  return {
    ...(serverError ? { errno } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(serverError ? { sqlState } : {}),
    message,
    fatal: field(err, 'fatal') === true || !serverError,
  };
}

/** Opens the connection; throws what mysql2 throws. */
export async function connectForImport(t: ImportTarget): Promise<DumpConnection> {
  const conn = await mysql.createConnection({
    host: t.host,
    port: t.port,
    user: t.user,
    password: t.password,
    ...(t.database !== undefined ? { database: t.database } : {}),
    charset: 'BINARY',
    connectTimeout: 20_000,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  // A connection that dies between statements emits 'error'; the next statement reports it.
  conn.on('error', () => undefined);
  try {
    await conn.query('SET NAMES utf8mb4');
  } catch (err) {
    conn.destroy();
    throw err;
  }
  return {
    async run(sql: Buffer): Promise<number> {
      const [result] = await conn.query(sql.toString('latin1'));
      return affectedRowsOf(result);
    },
    async close(): Promise<void> {
      await conn.end().catch(() => conn.destroy());
    },
  };
}
