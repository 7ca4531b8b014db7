/**
 * Options of `shale import`: where to connect (a mysql:// URL or --host/--port/--user/--password/
 * --database) and how to run. The parsers throw commander's InvalidArgumentError so a bad flag is
 * a usage error (exit code 2).
 */
import { InvalidArgumentError } from 'commander';
import { DEFAULT_MYSQL_PORT, parseMysqlUrl } from '../mysql-url.js';

/** The server the dump is loaded into. */
export interface ImportTarget {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Default database of the connection (a dump without USE statements needs one). */
  readonly database?: string;
}

export interface ImportOptions {
  readonly file: string;
  readonly target: ImportTarget;
  readonly continueOnError: boolean;
  readonly progress: boolean;
}

/** The flags commander hands to the action. */
export interface ImportFlags {
  url?: ImportTarget;
  host: string;
  port: number;
  user: string;
  password?: string;
  database?: string;
  continueOnError?: boolean;
  progress: boolean;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = DEFAULT_MYSQL_PORT;
export const DEFAULT_USER = 'root';

/** Parses mysql://[user[:password]@]host[:port][/database]. */
export function parseImportUrl(value: string): ImportTarget {
  const { database, ...rest } = parseMysqlUrl(value);
  return { ...rest, ...(database !== '' ? { database } : {}) };
}

/** A commander parser for a TCP port 1-65535. */
export function parsePortNumber(value: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number 1-65535');
  return n;
}

/** Combines the flags: the URL (with --password if it has none), or the separate connection flags. */
export function importOptions(file: string, flags: ImportFlags): ImportOptions {
  const url = flags.url;
  if (url !== undefined) {
    const target = url.password === '' && flags.password !== undefined ? { ...url, password: flags.password } : url;
    return { file, target, continueOnError: flags.continueOnError === true, progress: flags.progress };
  }
  const target: ImportTarget = {
    host: flags.host,
    port: flags.port,
    user: flags.user,
    password: flags.password ?? '',
    ...(flags.database !== undefined ? { database: flags.database } : {}),
  };
  return { file, target, continueOnError: flags.continueOnError === true, progress: flags.progress };
}

/** The target as a URL without the password, for messages. */
export function describeImportTarget(t: ImportTarget): string {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return `mysql://${encodeURIComponent(t.user)}@${host}:${t.port}${t.database !== undefined ? `/${t.database}` : ''}`;
}
