/** `mysql://[user[:password]@]host[:port][/database]` URLs given to the client-side commands. */
import { InvalidArgumentError } from 'commander';

export interface MysqlUrl {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** '' when the URL names no database. */
  readonly database: string;
}

export const DEFAULT_MYSQL_PORT = 4000;

/** Parses the URL; throws InvalidArgumentError (commander prints it as a usage error). */
export function parseMysqlUrl(value: string): MysqlUrl {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected mysql://user:password@host:port/database');
  }
  if (url.protocol !== 'mysql:') throw new InvalidArgumentError(`unsupported scheme "${url.protocol}" (use mysql://)`);
  if (url.hostname === '') throw new InvalidArgumentError('the URL has no host');
  if (url.search !== '' || url.hash !== '') throw new InvalidArgumentError('query parameters and fragments are not supported');
  return {
    // An IPv6 literal keeps its brackets in URL.hostname; net.connect wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? DEFAULT_MYSQL_PORT : Number(url.port),
    user: url.username === '' ? 'root' : decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
  };
}
