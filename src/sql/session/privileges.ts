/**
 * Privilege checks run before every statement (session.ts runStatement), on USE / COM_INIT_DB /
 * the handshake database, and on COM_FIELD_LIST. The requester's grants are read from the
 * catalog as of now (cached per schema version), so a GRANT or REVOKE on any node applies to the
 * next statement of every session. 'root' is the built-in superuser and is never looked up.
 *
 * Errors, with MySQL's texts: 1142 (table, names the client host), 1044 (database, names the
 * account host), 1227 (global privilege).
 */
import { SqlError } from '../../errors/index.js';
import type { Statement } from '../parse/index.js';
import { ROOT, type Grants } from './account-match.js';
import { isInformationSchema, requirementsOf, type Requirement } from './privilege-requirements.js';
import { sortPrivileges } from './privilege-names.js';
import type { ExecResult } from './types.js';
import type { UserRegistry } from './users.js';

export interface Requester {
  readonly user: string;
  /** The client's host (IP) as the server saw it. */
  readonly host: string;
  readonly currentDatabase: string | null;
  readonly users: UserRegistry;
}

/** False for the built-in superuser, whose statements authorize() never checks. */
export function hasPrivilegeChecks(user: string): boolean {
  return user !== ROOT.user;
}

/** Throws SqlError 1142 / 1044 / 1227 when `who` may not run `stmt`. */
export async function authorize(who: Requester, stmt: Statement): Promise<void> {
  if (!hasPrivilegeChecks(who.user)) return;
  const reqs = requirementsOf(stmt, who.currentDatabase);
  if (reqs.length === 0) return;
  check(await who.users.grantsFor(who.user, who.host), who, reqs);
}

/** USE db / COM_INIT_DB / the handshake database: some privilege on `db`, else 1044. */
export async function authorizeDatabase(who: Requester, db: string): Promise<void> {
  if (who.user === ROOT.user || isInformationSchema(db)) return;
  check(await who.users.grantsFor(who.user, who.host), who, [{ kind: 'anyOnDb', db }]);
}

/** `priv` on one table (COM_FIELD_LIST), else 1142. */
export async function authorizeTable(who: Requester, priv: string, db: string, table: string): Promise<void> {
  if (who.user === ROOT.user || isInformationSchema(db)) return;
  check(await who.users.grantsFor(who.user, who.host), who, [{ kind: 'table', priv, db, table }]);
}

/** For KILL and SHOW PROCESSLIST: does the session's account hold `priv` (SUPER, PROCESS) globally? */
export function hasGlobalPrivilege(who: Requester, priv: string): Promise<boolean> {
  return who.users.hasGlobalPrivilege(who.user, who.host, priv);
}

/** SHOW DATABASES lists only the databases the requester has some privilege on. */
export async function visibleShowResult(stmt: Statement, result: ExecResult, who: Requester): Promise<ExecResult> {
  if (who.user === ROOT.user || stmt.kind !== 'show' || stmt.target !== 'databases' || result.kind !== 'rows') return result;
  const grants = await who.users.grantsFor(who.user, who.host);
  const rows = result.rows.filter((r) => {
    const db = r[0];
    return typeof db !== 'string' || isInformationSchema(db) || grants.seesDatabase(db);
  });
  return { ...result, rows };
}

/** 1044 names the account's host pattern (`'u'@'%'`), as MySQL's priv_host. */
export function dbAccessDenied(grants: Grants, who: Requester, db: string): SqlError {
  return SqlError.of('ER_DBACCESS_DENIED_ERROR', who.user, grants.account?.host ?? who.host, db);
}

function check(grants: Grants, who: Requester, reqs: readonly Requirement[]): void {
  const missingOnTable = new Map<string, { table: string; privs: string[] }>();
  for (const r of reqs) {
    switch (r.kind) {
      case 'table': {
        if (grants.hasOnTable(r.priv, r.db, r.table)) break;
        const key = `${r.db}\0${r.table}`;
        const entry = missingOnTable.get(key) ?? { table: r.table, privs: [] };
        if (!entry.privs.includes(r.priv)) entry.privs.push(r.priv);
        missingOnTable.set(key, entry);
        break;
      }
      case 'db':
        if (!grants.hasOnDb(r.priv, r.db)) throw dbAccessDenied(grants, who, r.db);
        break;
      case 'anyOnDb':
        if (!grants.anyOnDb(r.db)) throw dbAccessDenied(grants, who, r.db);
        break;
      case 'global':
        if (!r.anyOf.some((p) => grants.hasGlobal(p))) throw SqlError.of('ER_SPECIFIC_ACCESS_DENIED_ERROR', r.anyOf.join(' or '));
        break;
    }
  }
  const first = missingOnTable.values().next();
  if (first.done === true) return;
  // MySQL names every missing privilege of the first table, comma-separated in its own order.
  const command = sortPrivileges(first.value.privs).join(',');
  throw SqlError.of('ER_TABLEACCESS_DENIED_ERROR', command, who.user, who.host, first.value.table);
}
