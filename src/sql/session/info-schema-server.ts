/**
 * Server-level information_schema tables: character sets and collations (sql/session/charset.ts,
 * the one list), ENGINES, PLUGINS, GLOBAL/SESSION_VARIABLES and the privilege tables.
 */
import type { Value } from '../../types/index.js';
import { ROOT, type Grants } from './account-match.js';
import { CHARSETS, COLLATIONS } from './charset.js';
import { GRANT_OPTION, staticPrivileges } from './privilege-names.js';
import { collationSortLen, showEngines, showPlugins } from './show-server.js';
import { DEF } from './info-schema-tables.js';

export function characterSetsRows(): Value[][] {
  return CHARSETS.map((c) => [c.name, c.defaultCollation, c.description, BigInt(c.maxLen)]);
}

export function collationsRows(): Value[][] {
  return COLLATIONS.map((c) => [
    c.name, c.charset, BigInt(c.id), c.isDefault ? 'Yes' : '', 'Yes', collationSortLen(c.name), c.padSpace ? 'PAD SPACE' : 'NO PAD',
  ]);
}

export function collationApplicabilityRows(): Value[][] {
  return COLLATIONS.map((c) => [c.name, c.charset]);
}

export function enginesRows(): Value[][] {
  return showEngines().rows;
}

export function pluginsRows(): Value[][] {
  return showPlugins().rows.map(([name, status, type, library, license]) => [
    name ?? '', '1.0', status ?? 'ACTIVE', type ?? '', '80000.0', library ?? null, null, 'Oracle Corporation', null,
    license ?? 'GPL', 'FORCE',
  ]);
}

export function variablesRows(entries: ReadonlyArray<readonly [string, string]>): Value[][] {
  return entries.map(([name, value]) => [name.toUpperCase(), value]);
}

/** `'user'@'host'` as GRANTEE shows an account. */
function grantee(user: string, host: string): string {
  return `'${user}'@'${host}'`;
}

/** USER_PRIVILEGES: global privileges (USAGE when there are none). `grants` undefined = root. */
export function userPrivilegesRows(user: string, grants: Grants | undefined): Value[][] {
  const account = grants?.account;
  const who = account === undefined ? grantee(user, ROOT.host) : grantee(account.user, account.host);
  const privs = grants === undefined || grants.superuser ? staticPrivileges('global') : [...(account?.global ?? [])];
  const grantable = privs.includes(GRANT_OPTION) || grants === undefined || grants.superuser ? 'YES' : 'NO';
  const shown = privs.filter((p) => p !== GRANT_OPTION);
  if (shown.length === 0) return [[who, DEF, 'USAGE', 'NO']];
  return shown.map((p) => [who, DEF, p, grantable]);
}

export function schemaPrivilegesRows(grants: Grants | undefined): Value[][] {
  const account = grants?.account;
  if (account === undefined) return [];
  const who = grantee(account.user, account.host);
  return account.dbs.flatMap((g) => {
    const grantable = g.privs.includes(GRANT_OPTION) ? 'YES' : 'NO';
    return g.privs.filter((p) => p !== GRANT_OPTION).map((p): Value[] => [who, DEF, g.db, p, grantable]);
  });
}

export function tablePrivilegesRows(grants: Grants | undefined): Value[][] {
  const account = grants?.account;
  if (account === undefined) return [];
  const who = grantee(account.user, account.host);
  return account.tables.flatMap((g) => {
    const grantable = g.privs.includes(GRANT_OPTION) ? 'YES' : 'NO';
    return g.privs.filter((p) => p !== GRANT_OPTION).map((p): Value[] => [who, DEF, g.db, g.table, p, grantable]);
  });
}
