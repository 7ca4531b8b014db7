/**
 * CREATE / ALTER / DROP / RENAME USER and SET PASSWORD; GRANT / REVOKE are in grant-statements.ts,
 * SHOW GRANTS in show-grants.ts. Each change is one catalog transaction that also bumps the
 * schema version, so every node applies it to its next statement. Passwords are hashed here and
 * never stored or logged in plaintext.
 */
import type { AccountEdit, StoredAccount } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { AccountName, AccountStatement, UserSpec } from '../parse/index.js';
import {
  contextFor, newAccount, protectRoot, report, requireCreateUser, resolveRef,
  type AccountContext, type AccountHost, type Deferred,
} from './account-context.js';
import { accountText, findAccount, isRoot, ROOT, sameAccount } from './account-match.js';
import { okResult } from './ddl.js';
import { runGrant, runRevoke, runRevokeAll } from './grant-statements.js';
import { showGrants } from './show-grants.js';
import type { ExecResult } from './types.js';
import { hashPassword } from './users.js';

export type { AccountHost } from './account-context.js';
export { accountHostFor } from './account-context.js';

export async function runAccount(stmt: AccountStatement, host: AccountHost): Promise<ExecResult> {
  const who = host.who;
  const ctx = contextFor(host, await who.users.grantsFor(who.user, who.host));
  if (stmt.op === 'showGrants') return showGrants(ctx, stmt.account);
  await host.commit();
  switch (stmt.op) {
    case 'createUser':
      return createUsers(ctx, stmt.users, stmt.ifNotExists);
    case 'alterUser':
      return alterUsers(ctx, stmt.users, stmt.ifExists);
    case 'dropUser':
      return dropUsers(ctx, stmt.users, stmt.ifExists);
    case 'renameUser':
      return renameUsers(ctx, stmt.pairs);
    case 'setPassword':
      return setPassword(ctx, stmt.account === undefined ? ctx.self : resolveRef(ctx, stmt.account), stmt.password);
    case 'grant':
      return runGrant(ctx, stmt);
    case 'revoke':
      return runRevoke(ctx, stmt);
    case 'revokeAll':
      return runRevokeAll(ctx, stmt);
  }
}

/** 1396 `Operation <op> failed for 'a'@'h','b'@'h'` when any account failed. */
function failIfAny(op: string, failed: readonly AccountName[]): void {
  if (failed.length > 0) throw SqlError.of('ER_CANNOT_USER', op, failed.map(accountText).join(','));
}

/** Runs `fn` in one account transaction, then reports its notes. */
async function change(ctx: AccountContext, fn: (edit: AccountEdit, notes: Deferred[]) => void): Promise<ExecResult> {
  const notes = await ctx.host.who.users.update((edit) => {
    const out: Deferred[] = [];
    fn(edit, out);
    return out;
  });
  report(ctx.host, notes);
  return okResult();
}

function createUsers(ctx: AccountContext, users: readonly UserSpec[], ifNotExists: boolean): Promise<ExecResult> {
  requireCreateUser(ctx);
  return change(ctx, (edit, notes) => {
    const failed: AccountName[] = [];
    const created: StoredAccount[] = [];
    for (const spec of users) {
      const name = resolveRef(ctx, spec.account);
      const exists = findAccount(edit.accounts, name) !== undefined || created.some((a) => sameAccount(a, name));
      // The user name `root` belongs to the built-in 'root'@'%' only.
      if (exists && ifNotExists) notes.push({ level: 'Note', code: 3163, message: SqlError.of('ER_USER_ALREADY_EXISTS', accountText(name)).message });
      else if (exists || name.user === ROOT.user) failed.push(name);
      else created.push(newAccount(name, hashPassword(spec.password ?? '')));
    }
    failIfAny('CREATE USER', failed);
    for (const a of created) edit.put(a);
  });
}

function alterUsers(ctx: AccountContext, users: readonly UserSpec[], ifExists: boolean): Promise<ExecResult> {
  const targets = users.map((spec) => ({ name: resolveRef(ctx, spec.account), password: spec.password }));
  for (const t of targets) {
    if (!sameAccount(t.name, ctx.self)) requireCreateUser(ctx);
    protectRoot(ctx, t.name);
  }
  return change(ctx, (edit, notes) => {
    const failed: AccountName[] = [];
    const updated: StoredAccount[] = [];
    for (const t of targets) {
      const current = findAccount(edit.accounts, t.name);
      if (current === undefined) {
        if (ifExists) notes.push(doesNotExist(t.name));
        else failed.push(t.name);
      } else if (t.password !== undefined) updated.push({ ...current, ...hashPassword(t.password) });
    }
    failIfAny('ALTER USER', failed);
    for (const a of updated) edit.put(a);
  });
}

function dropUsers(ctx: AccountContext, users: readonly AccountName[], ifExists: boolean): Promise<ExecResult> {
  requireCreateUser(ctx);
  return change(ctx, (edit, notes) => {
    const failed: AccountName[] = [];
    const dropped: AccountName[] = [];
    for (const name of users) {
      const exists = findAccount(edit.accounts, name) !== undefined && !dropped.some((d) => sameAccount(d, name));
      if (isRoot(name)) failed.push(name);
      else if (exists) dropped.push(name);
      else if (ifExists) notes.push(doesNotExist(name));
      else failed.push(name);
    }
    failIfAny('DROP USER', failed);
    for (const d of dropped) edit.remove(d.user, d.host);
  });
}

function renameUsers(ctx: AccountContext, pairs: ReadonlyArray<{ from: AccountName; to: AccountName }>): Promise<ExecResult> {
  requireCreateUser(ctx);
  return change(ctx, (edit) => {
    const accounts = [...edit.accounts];
    const renamed = new Set<number>();
    const failed: AccountName[] = [];
    for (const { from, to } of pairs) {
      const i = accounts.findIndex((a) => sameAccount(a, from));
      const current = accounts[i];
      if (current === undefined || isRoot(from) || to.user === ROOT.user || findAccount(accounts, to) !== undefined) {
        failed.push(from);
        continue;
      }
      accounts[i] = { ...current, user: to.user, host: to.host };
      renamed.add(i);
    }
    failIfAny('RENAME USER', failed);
    for (const a of edit.accounts) if (findAccount(accounts, a) === undefined) edit.remove(a.user, a.host);
    for (const i of renamed) {
      const a = accounts[i];
      if (a !== undefined) edit.put(a);
    }
  });
}

/** SET PASSWORD [FOR user]: one's own always; another account needs CREATE USER (else 1044 on `mysql`). */
function setPassword(ctx: AccountContext, target: AccountName, password: string): Promise<ExecResult> {
  if (!sameAccount(target, ctx.self) && !ctx.grants.hasGlobal('CREATE USER')) {
    throw SqlError.of('ER_DBACCESS_DENIED_ERROR', ctx.self.user, ctx.self.host, 'mysql');
  }
  protectRoot(ctx, target);
  return change(ctx, (edit) => {
    const current = findAccount(edit.accounts, target);
    if (current === undefined) throw SqlError.of('ER_PASSWORD_NO_MATCH');
    edit.put({ ...current, ...hashPassword(password) });
  });
}

function doesNotExist(name: AccountName): Deferred {
  return { level: 'Note', code: 3162, message: SqlError.of('ER_USER_DOES_NOT_EXIST', accountText(name)).message };
}
