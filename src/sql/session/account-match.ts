/**
 * Which stored account a connection uses, and what that account may do. An account's host is
 * `%`, an exact host name / IP, or a pattern with `%` and `_` (case-insensitive); `localhost`
 * also matches the loopback addresses. Of the accounts with the connecting user's name, the most
 * specific matching host wins (exact before patterns before `%`), as in MySQL.
 */
import type { StoredAccount } from '../../catalog/index.js';
import type { AccountName } from '../parse/index.js';
import { GRANT_OPTION, staticPrivileges } from './privilege-names.js';

/** The built-in superuser 'root'@'%': always exists, always has every privilege. */
export const ROOT: AccountName = { user: 'root', host: '%' };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const DB_PRIVILEGES = new Set(staticPrivileges('db').filter((p) => p !== GRANT_OPTION));

export function isRoot(a: AccountName): boolean {
  return a.user === ROOT.user && a.host === ROOT.host;
}

export function sameAccount(a: AccountName, b: AccountName): boolean {
  return a.user === b.user && a.host === b.host;
}

/** `'user'@'host'` as MySQL prints accounts in messages. */
export function accountText(a: AccountName): string {
  return `'${a.user}'@'${a.host}'`;
}

export function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase();
  if (p === '%' || p === h) return true;
  if (p === 'localhost' && LOOPBACK.has(h)) return true;
  if (!/[%_]/.test(p)) return false;
  const re = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${re}$`).test(h);
}

/** Higher = more specific: exact hosts, then patterns with a longer literal prefix, then `%`. */
function specificity(pattern: string): number {
  const wild = pattern.search(/[%_]/);
  return wild < 0 ? 1000 + pattern.length : wild;
}

/** The account `user` connecting from `host` logs in as, if any. */
export function matchAccount(accounts: readonly StoredAccount[], user: string, host: string): StoredAccount | undefined {
  let best: StoredAccount | undefined;
  for (const a of accounts) {
    if (a.user !== user || !hostMatches(a.host, host)) continue;
    if (best === undefined || specificity(a.host) > specificity(best.host)) best = a;
  }
  return best;
}

export function findAccount(accounts: readonly StoredAccount[], name: AccountName): StoredAccount | undefined {
  return accounts.find((a) => sameAccount(a, name));
}

/** The privileges of one session: its account's grants at every level (root: everything). */
export class Grants {
  private readonly global: ReadonlySet<string>;
  private readonly dbs = new Map<string, ReadonlySet<string>>();
  private readonly tables = new Map<string, ReadonlySet<string>>();

  /**
   * `account` undefined: the session's account no longer exists (dropped or renamed while
   * connected) and has no privileges.
   */
  constructor(
    readonly account: StoredAccount | undefined,
    readonly superuser: boolean,
  ) {
    this.global = new Set(account?.global ?? []);
    for (const g of account?.dbs ?? []) this.dbs.set(g.db, new Set(g.privs));
    for (const g of account?.tables ?? []) this.tables.set(tableKey(g.db, g.table), new Set(g.privs));
  }

  hasGlobal(priv: string): boolean {
    return this.superuser || this.global.has(priv);
  }

  /** `priv` on the database (global or database level). */
  hasOnDb(priv: string, db: string): boolean {
    return this.hasGlobal(priv) || (this.dbs.get(db)?.has(priv) ?? false);
  }

  /** `priv` on the table (global, database or table level). */
  hasOnTable(priv: string, db: string, table: string): boolean {
    return this.hasOnDb(priv, db) || (this.tables.get(tableKey(db, table))?.has(priv) ?? false);
  }

  /** Some privilege on the database or one of its tables (USE, SHOW TABLES, SHOW DATABASES). */
  anyOnDb(db: string): boolean {
    if (this.superuser || [...this.global].some((p) => DB_PRIVILEGES.has(p))) return true;
    if ([...(this.dbs.get(db) ?? [])].some((p) => p !== GRANT_OPTION)) return true;
    for (const [key, privs] of this.tables) if (key.startsWith(`${db}\0`) && privs.size > 0) return true;
    return false;
  }

  /** SHOW DATABASES lists `db` (every database with SHOW DATABASES or a global database privilege). */
  seesDatabase(db: string): boolean {
    return this.hasGlobal('SHOW DATABASES') || this.anyOnDb(db);
  }
}

function tableKey(db: string, table: string): string {
  return `${db}\0${table}`;
}
