/**
 * The privileges MySQL 8.0 knows, in the order SHOW GRANTS prints them, with the levels each
 * may be granted at. Static privileges are what the server checks; dynamic ones (`*_ADMIN`, ...)
 * are global only, stored and shown, and SUPER-like where the server checks them.
 */
import { SqlError } from '../../errors/index.js';
import type { PrivilegeLevel } from '../parse/index.js';

export type LevelKind = PrivilegeLevel['kind'];

/** `GRANT OPTION` is stored like a privilege; SHOW GRANTS prints it as WITH GRANT OPTION. */
export const GRANT_OPTION = 'GRANT OPTION';

/** [name, levels]: g = global, d = database, t = table. Order = MySQL's bit order. */
const STATIC: ReadonlyArray<readonly [string, string]> = [
  ['SELECT', 'gdt'], ['INSERT', 'gdt'], ['UPDATE', 'gdt'], ['DELETE', 'gdt'], ['CREATE', 'gdt'], ['DROP', 'gdt'],
  ['RELOAD', 'g'], ['SHUTDOWN', 'g'], ['PROCESS', 'g'], ['FILE', 'g'], [GRANT_OPTION, 'gdt'], ['REFERENCES', 'gdt'],
  ['INDEX', 'gdt'], ['ALTER', 'gdt'], ['SHOW DATABASES', 'g'], ['SUPER', 'g'], ['CREATE TEMPORARY TABLES', 'gd'],
  ['LOCK TABLES', 'gd'], ['EXECUTE', 'gd'], ['REPLICATION SLAVE', 'g'], ['REPLICATION CLIENT', 'g'],
  ['CREATE VIEW', 'gdt'], ['SHOW VIEW', 'gdt'], ['CREATE ROUTINE', 'gd'], ['ALTER ROUTINE', 'gd'], ['CREATE USER', 'g'],
  ['EVENT', 'gd'], ['TRIGGER', 'gdt'], ['CREATE TABLESPACE', 'g'], ['CREATE ROLE', 'g'], ['DROP ROLE', 'g'],
];

/** Dynamic privileges of MySQL 8.0 (global level only), sorted. */
export const DYNAMIC_PRIVILEGES: readonly string[] = [
  'APPLICATION_PASSWORD_ADMIN', 'AUDIT_ABORT_EXEMPT', 'AUDIT_ADMIN', 'AUTHENTICATION_POLICY_ADMIN', 'BACKUP_ADMIN',
  'BINLOG_ADMIN', 'BINLOG_ENCRYPTION_ADMIN', 'CLONE_ADMIN', 'CONNECTION_ADMIN', 'ENCRYPTION_KEY_ADMIN',
  'FIREWALL_EXEMPT', 'FLUSH_OPTIMIZER_COSTS', 'FLUSH_STATUS', 'FLUSH_TABLES', 'FLUSH_USER_RESOURCES',
  'GROUP_REPLICATION_ADMIN', 'GROUP_REPLICATION_STREAM', 'INNODB_REDO_LOG_ARCHIVE', 'INNODB_REDO_LOG_ENABLE',
  'PASSWORDLESS_USER_ADMIN', 'PERSIST_RO_VARIABLES_ADMIN', 'REPLICATION_APPLIER', 'REPLICATION_SLAVE_ADMIN',
  'RESOURCE_GROUP_ADMIN', 'RESOURCE_GROUP_USER', 'ROLE_ADMIN', 'SENSITIVE_VARIABLES_OBSERVER',
  'SERVICE_CONNECTION_ADMIN', 'SESSION_VARIABLES_ADMIN', 'SET_USER_ID', 'SHOW_ROUTINE', 'SYSTEM_USER',
  'SYSTEM_VARIABLES_ADMIN', 'TABLE_ENCRYPTION_ADMIN', 'XA_RECOVER_ADMIN',
];

const LEVEL_LETTER: Readonly<Record<LevelKind, string>> = { global: 'g', db: 'd', table: 't' };
const STATIC_LEVELS = new Map(STATIC);
const STATIC_ORDER = new Map(STATIC.map(([name], i) => [name, i]));
const DYNAMIC = new Set(DYNAMIC_PRIVILEGES);

/** Static privileges grantable at `level`, in SHOW GRANTS order (GRANT OPTION included). */
export function staticPrivileges(level: LevelKind): string[] {
  return STATIC.filter(([, levels]) => levels.includes(LEVEL_LETTER[level])).map(([name]) => name);
}

/** What `ALL [PRIVILEGES]` means at `level` (without GRANT OPTION; globally also every dynamic one). */
export function allPrivileges(level: LevelKind): string[] {
  const base = staticPrivileges(level).filter((p) => p !== GRANT_OPTION);
  return level === 'global' ? [...base, ...DYNAMIC_PRIVILEGES] : base;
}

export function isDynamic(name: string): boolean {
  return DYNAMIC.has(name);
}

/**
 * The privilege names of a GRANT / REVOKE list, expanded and validated for `level`:
 * ALL -> allPrivileges(level), USAGE -> nothing; errors as MySQL reports them
 * (1221 global-only at db level, 1144 at table level, 3619 dynamic at db/table level, 3929 unknown).
 */
export function resolvePrivileges(names: readonly string[], level: LevelKind, shownLevel: string): string[] {
  const out = new Set<string>();
  for (const name of names) {
    if (name === 'ALL') for (const p of allPrivileges(level)) out.add(p);
    else if (name === 'USAGE') continue;
    else if (name === 'PROXY') throw SqlError.of('ER_NOT_SUPPORTED_YET', 'PROXY');
    else out.add(checkOne(name, level, shownLevel));
  }
  return sortPrivileges([...out]);
}

function checkOne(name: string, level: LevelKind, shownLevel: string): string {
  const levels = STATIC_LEVELS.get(name);
  if (levels !== undefined) {
    if (levels.includes(LEVEL_LETTER[level])) return name;
    if (level === 'db') throw SqlError.of('ER_WRONG_USAGE', 'DB GRANT', 'GLOBAL PRIVILEGES');
    throw SqlError.of('ER_ILLEGAL_GRANT_FOR_TABLE');
  }
  if (level !== 'global') throw SqlError.of('ER_ILLEGAL_PRIVILEGE_LEVEL', level === 'table' ? shownLevel : name);
  if (!DYNAMIC.has(name)) throw SqlError.of('ER_DYNAMIC_PRIV_NOT_REGISTERED', name);
  return name;
}

/** Static privileges in MySQL's order first, then dynamic ones alphabetically. */
export function sortPrivileges(names: readonly string[]): string[] {
  const rank = (n: string): number => STATIC_ORDER.get(n) ?? STATIC.length;
  return [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
