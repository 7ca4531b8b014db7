/** What account statements (CREATE USER, GRANT, SHOW GRANTS, ...) need from the session, and shared checks. */
import type { Schema, StoredAccount } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { AccountName, AccountRef } from '../parse/index.js';
import { isRoot, type Grants } from './account-match.js';
import type { DiagnosticLevel } from './diagnostics.js';
import type { Requester } from './privileges.js';

export interface AccountHost {
  readonly who: Requester;
  /** Commits the open transaction (account changes commit it implicitly, like DDL). */
  commit(): Promise<void>;
  /** Adds a note or warning (IF [NOT] EXISTS, IGNORE UNKNOWN USER). */
  diagnostic(level: DiagnosticLevel, code: number, message: string): void;
  /** The latest schema (a table-level GRANT checks that the table exists). */
  schema(): Promise<Schema>;
}

/** The AccountHost of a session: its requester, transaction, diagnostics and catalog. */
export function accountHostFor(
  who: Requester,
  txn: { commit(): Promise<void> },
  diagnostics: { add(level: DiagnosticLevel, code: number, message: string): void },
  catalog: { latestSchema(): Promise<Schema> },
): AccountHost {
  return {
    who,
    commit: () => txn.commit(),
    diagnostic: (level, code, message) => diagnostics.add(level, code, message),
    schema: () => catalog.latestSchema(),
  };
}

/** One account statement's view of its requester. */
export interface AccountContext {
  readonly host: AccountHost;
  /** The requester's privileges as of the statement start. */
  readonly grants: Grants;
  /** The requester's own account (what CURRENT_USER names). */
  readonly self: AccountName;
}

/** A note or warning decided inside a (retryable) transaction, reported after it commits. */
export interface Deferred {
  readonly level: DiagnosticLevel;
  readonly code: number;
  readonly message: string;
}

export function report(host: AccountHost, items: readonly Deferred[]): void {
  for (const d of items) host.diagnostic(d.level, d.code, d.message);
}

export function contextFor(host: AccountHost, grants: Grants): AccountContext {
  const a = grants.account;
  return { host, grants, self: a === undefined ? { user: host.who.user, host: host.who.host } : { user: a.user, host: a.host } };
}

export function resolveRef(ctx: AccountContext, ref: AccountRef): AccountName {
  return 'current' in ref ? ctx.self : ref;
}

/** CREATE / DROP / RENAME USER, and ALTER USER of another account, need CREATE USER (1227). */
export function requireCreateUser(ctx: AccountContext): void {
  if (!ctx.grants.hasGlobal('CREATE USER')) throw SqlError.of('ER_SPECIFIC_ACCESS_DENIED_ERROR', 'CREATE USER');
}

/** Only root itself may change root (MySQL: changing a SYSTEM_USER account needs SYSTEM_USER). */
export function protectRoot(ctx: AccountContext, target: AccountName): void {
  if (isRoot(target) && !ctx.grants.superuser) throw SqlError.of('ER_SPECIFIC_ACCESS_DENIED_ERROR', 'SYSTEM_USER');
}

/** A fresh account without privileges. */
export function newAccount(name: AccountName, hashes: Pick<StoredAccount, 'nativeHash' | 'sha2Hash'>): StoredAccount {
  return { user: name.user, host: name.host, nativeHash: hashes.nativeHash, sha2Hash: hashes.sha2Hash, global: [], dbs: [], tables: [] };
}
