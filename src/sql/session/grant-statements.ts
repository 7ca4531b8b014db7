/**
 * GRANT / REVOKE at the global (`*.*`), database (`db.*`) and table (`db.tbl`) level, and
 * REVOKE ALL PRIVILEGES, GRANT OPTION. The granter needs GRANT OPTION and every privilege it
 * passes on at that level (denied: 1045 global, 1044 database, 1142 table, as MySQL reports).
 */
import type { AccountEdit, StoredAccount } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { AccountName, AccountRef, AccountStatement, PrivilegeLevel } from '../parse/index.js';
import { protectRoot, report, requireCreateUser, resolveRef, type AccountContext, type Deferred } from './account-context.js';
import { accountText, findAccount, isRoot } from './account-match.js';
import { okResult } from './ddl.js';
import { GRANT_OPTION, resolvePrivileges, sortPrivileges, type LevelKind } from './privilege-names.js';
import { dbAccessDenied } from './privileges.js';
import type { ExecResult } from './types.js';

type GrantStmt = Extract<AccountStatement, { op: 'grant' }>;
type RevokeStmt = Extract<AccountStatement, { op: 'revoke' }>;
type RevokeAllStmt = Extract<AccountStatement, { op: 'revokeAll' }>;

interface Level {
  readonly kind: LevelKind;
  readonly db: string;
  readonly table: string;
}

export async function runGrant(ctx: AccountContext, stmt: GrantStmt): Promise<ExecResult> {
  const level = resolveLevel(ctx, stmt.level);
  const privs = resolvePrivileges(stmt.privileges, level.kind, level.table);
  if (stmt.grantOption) privs.push(GRANT_OPTION);
  await requireTable(ctx, level);
  requireGrantable(ctx, level, privs);
  const targets = grantees(ctx, stmt.users, 'GRANT');
  await ctx.host.who.users.update((edit) => {
    const accounts = targets.map((t) => findAccount(edit.accounts, t));
    if (accounts.some((a) => a === undefined)) throw SqlError.of('ER_CANT_CREATE_USER_WITH_GRANT');
    for (const a of accounts) if (a !== undefined) edit.put(changeLevel(a, level, (old) => [...old, ...privs]));
  });
  return okResult();
}

export async function runRevoke(ctx: AccountContext, stmt: RevokeStmt): Promise<ExecResult> {
  const level = resolveLevel(ctx, stmt.level);
  const privs = resolvePrivileges(stmt.privileges, level.kind, level.table);
  requireGrantable(ctx, level, privs);
  const targets = grantees(ctx, stmt.users, 'REVOKE');
  const notes = await ctx.host.who.users.update((edit) => {
    const out: Deferred[] = [];
    for (const t of targets) {
      const a = findAccount(edit.accounts, t);
      if (a === undefined) {
        if (!stmt.ignoreUnknownUser) throw noSuchGrant(t, level);
        out.push({ level: 'Warning', code: 3162, message: SqlError.of('ER_USER_DOES_NOT_EXIST', accountText(t)).message });
      } else if (!hasLevelEntry(a, level)) {
        const err = noSuchGrant(t, level);
        if (!stmt.ifExists) throw err;
        out.push({ level: 'Warning', code: err.errno, message: err.message });
      } else edit.put(changeLevel(a, level, (old) => old.filter((p) => !privs.includes(p))));
    }
    return out;
  });
  report(ctx.host, notes);
  return okResult();
}

/** REVOKE ALL PRIVILEGES, GRANT OPTION FROM u: every grant at every level (needs CREATE USER). */
export async function runRevokeAll(ctx: AccountContext, stmt: RevokeAllStmt): Promise<ExecResult> {
  requireCreateUser(ctx);
  const targets = grantees(ctx, stmt.users, 'REVOKE');
  const notes = await ctx.host.who.users.update((edit: AccountEdit) => {
    const out: Deferred[] = [];
    for (const t of targets) {
      const a = findAccount(edit.accounts, t);
      if (a !== undefined) edit.put({ ...a, global: [], dbs: [], tables: [] });
      else if (stmt.ignoreUnknownUser) out.push({ level: 'Warning', code: 3162, message: SqlError.of('ER_USER_DOES_NOT_EXIST', accountText(t)).message });
      else throw SqlError.of('ER_REVOKE_GRANTS');
    }
    return out;
  });
  report(ctx.host, notes);
  return okResult();
}

function resolveLevel(ctx: AccountContext, level: PrivilegeLevel): Level {
  if (level.kind === 'global') return { kind: 'global', db: '', table: '' };
  const db = level.db ?? ctx.host.who.currentDatabase;
  if (db === null) throw SqlError.of('ER_NO_DB_ERROR');
  return level.kind === 'db' ? { kind: 'db', db, table: '' } : { kind: 'table', db, table: level.table };
}

/** A table-level GRANT needs the table to exist (REVOKE does not). */
async function requireTable(ctx: AccountContext, level: Level): Promise<void> {
  if (level.kind === 'table' && (await ctx.host.schema()).table(level.db, level.table) === undefined) {
    throw SqlError.of('ER_NO_SUCH_TABLE', `${level.db}.${level.table}`);
  }
}

/** The granter must hold GRANT OPTION and each privilege at the level. */
function requireGrantable(ctx: AccountContext, level: Level, privs: readonly string[]): void {
  const g = ctx.grants;
  if (g.superuser) return;
  const has = (p: string): boolean =>
    level.kind === 'global' ? g.hasGlobal(p) : level.kind === 'db' ? g.hasOnDb(p, level.db) : g.hasOnTable(p, level.db, level.table);
  if ([GRANT_OPTION, ...privs].every(has)) return;
  const who = ctx.host.who;
  if (level.kind === 'db') throw dbAccessDenied(g, who, level.db);
  if (level.kind === 'table') throw SqlError.of('ER_TABLEACCESS_DENIED_ERROR', 'GRANT', who.user, who.host, level.table);
  const password = (g.account?.nativeHash.length ?? 0) > 0 ? 'YES' : 'NO';
  throw SqlError.of('ER_ACCESS_DENIED_ERROR', ctx.self.user, ctx.self.host, password);
}

/** The accounts a GRANT / REVOKE names. Root's privileges are fixed: granting to it changes nothing. */
function grantees(ctx: AccountContext, refs: readonly AccountRef[], op: 'GRANT' | 'REVOKE'): AccountName[] {
  const out: AccountName[] = [];
  for (const ref of refs) {
    const name = resolveRef(ctx, ref);
    protectRoot(ctx, name);
    if (!isRoot(name)) out.push(name);
    else if (op === 'REVOKE') throw SqlError.of('ER_CANNOT_USER', op, accountText(name));
  }
  return out;
}

function noSuchGrant(t: AccountName, level: Level): SqlError {
  if (level.kind === 'table') return SqlError.of('ER_NONEXISTING_TABLE_GRANT', t.user, t.host, level.table);
  return SqlError.of('ER_NONEXISTING_GRANT', t.user, t.host);
}

function hasLevelEntry(a: StoredAccount, level: Level): boolean {
  if (level.kind === 'global') return true;
  if (level.kind === 'db') return a.dbs.some((g) => g.db === level.db);
  return a.tables.some((g) => g.db === level.db && g.table === level.table);
}

/** `a` with the privileges at `level` replaced by `change(old)`; empty database / table entries are dropped. */
function changeLevel(a: StoredAccount, level: Level, change: (old: readonly string[]) => string[]): StoredAccount {
  const next = (old: readonly string[]): string[] => sortPrivileges([...new Set(change(old))]);
  if (level.kind === 'global') return { ...a, global: next(a.global) };
  if (level.kind === 'db') {
    const privs = next(a.dbs.find((g) => g.db === level.db)?.privs ?? []);
    const others = a.dbs.filter((g) => g.db !== level.db);
    return { ...a, dbs: privs.length > 0 ? [...others, { db: level.db, privs }] : others };
  }
  const same = (g: { db: string; table: string }): boolean => g.db === level.db && g.table === level.table;
  const privs = next(a.tables.find(same)?.privs ?? []);
  const others = a.tables.filter((g) => !same(g));
  return { ...a, tables: privs.length > 0 ? [...others, { db: level.db, table: level.table, privs }] : others };
}
