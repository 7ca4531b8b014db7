/**
 * SHOW GRANTS [FOR user], in MySQL 8.0's format: one `GRANT ... ON *.* TO `u`@`h`` line with the
 * static global privileges (or USAGE), one line with the dynamic ones if any, then one line per
 * database (sorted) and per table (sorted by qualified name); ALL PRIVILEGES when a database or
 * table line has every privilege of its level; ` WITH GRANT OPTION` when GRANT OPTION is held.
 * Another user name's grants need SELECT on mysql.user, i.e. global SELECT (else 1142).
 */
import type { StoredAccount } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { AccountRef } from '../parse/index.js';
import { resolveRef, type AccountContext } from './account-context.js';
import { findAccount, isRoot } from './account-match.js';
import { allPrivileges, DYNAMIC_PRIVILEGES, GRANT_OPTION, isDynamic, staticPrivileges, type LevelKind } from './privilege-names.js';
import { textColumn } from './result-columns.js';
import type { RowsResult } from './types.js';

export async function showGrants(ctx: AccountContext, ref: AccountRef | undefined): Promise<RowsResult> {
  const who = ctx.host.who;
  const target = ref === undefined ? ctx.self : resolveRef(ctx, ref);
  if (target.user !== ctx.self.user && !ctx.grants.hasGlobal('SELECT')) {
    throw SqlError.of('ER_TABLEACCESS_DENIED_ERROR', 'SELECT', who.user, who.host, 'user');
  }
  const account = findAccount(await who.users.accounts(), target);
  if (account === undefined) throw SqlError.of('ER_NONEXISTING_GRANT', target.user, target.host);
  return {
    kind: 'rows',
    columns: [textColumn(`Grants for ${account.user}@${account.host}`, 1024)],
    rows: grantLines(account).map((line) => [line]),
    warnings: 0,
  };
}

/** The GRANT statements that recreate `a`'s privileges (root: every privilege WITH GRANT OPTION). */
export function grantLines(a: StoredAccount): string[] {
  const to = ` TO ${quoteIdent(a.user)}@${quoteIdent(a.host)}`;
  const global = isRoot(a) ? [...staticPrivileges('global'), ...DYNAMIC_PRIVILEGES] : a.global;
  const withGrant = (privs: readonly string[]): string => (privs.includes(GRANT_OPTION) ? ' WITH GRANT OPTION' : '');
  const lines = [`GRANT ${privilegeText(global.filter((p) => !isDynamic(p)), 'global')} ON *.*${to}${withGrant(global)}`];
  const dynamic = global.filter(isDynamic);
  if (dynamic.length > 0) lines.push(`GRANT ${dynamic.join(',')} ON *.*${to}${withGrant(global)}`);
  for (const g of [...a.dbs].sort((x, y) => compare(x.db, y.db))) {
    lines.push(`GRANT ${privilegeText(g.privs, 'db')} ON ${quoteIdent(g.db)}.*${to}${withGrant(g.privs)}`);
  }
  const tables = a.tables.map((g) => ({ name: `${quoteIdent(g.db)}.${quoteIdent(g.table)}`, privs: g.privs }));
  for (const g of tables.sort((x, y) => compare(x.name, y.name))) {
    lines.push(`GRANT ${privilegeText(g.privs, 'table')} ON ${g.name}${to}${withGrant(g.privs)}`);
  }
  return lines;
}

/** `SELECT, INSERT`, `USAGE` when empty, `ALL PRIVILEGES` when complete (database / table level only). */
function privilegeText(privs: readonly string[], level: LevelKind): string {
  const shown = staticPrivileges(level).filter((p) => p !== GRANT_OPTION && privs.includes(p));
  if (shown.length === 0) return 'USAGE';
  if (level !== 'global' && allPrivileges(level).every((p) => privs.includes(p))) return 'ALL PRIVILEGES';
  return shown.join(', ');
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
