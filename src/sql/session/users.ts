/**
 * Accounts known to the engine, read from the catalog (so every SQL node sharing the store sees
 * the same ones). Only the double hashes the auth plugins verify against are stored; plaintext
 * passwords are hashed at once and dropped. 'root'@'%' is created on the first start (with the
 * initial password) and is the built-in superuser; the user name `root` names no other account.
 */
import { createHash } from 'node:crypto';
import { AccountCatalog, type AccountEdit, type StoredAccount } from '../../catalog/index.js';
import type { TxnStore } from '../../txn/index.js';
import { Grants, isRoot, matchAccount, ROOT } from './account-match.js';
import type { UserAuth } from './types.js';

export class UserRegistry {
  private readonly catalog: AccountCatalog;

  constructor(txns: TxnStore) {
    this.catalog = new AccountCatalog(txns);
  }

  /**
   * First start only: when the store holds no account yet, creates 'root'@'%' with
   * `rootPassword` (may be empty). Later starts keep the stored accounts. True if it created root.
   */
  bootstrap(rootPassword: string): Promise<boolean> {
    return this.catalog.bootstrap({ ...ROOT, ...hashPassword(rootPassword), global: [], dbs: [], tables: [] });
  }

  /** Credentials of the account `user` logs in as from `host`, or null. */
  async lookup(user: string, host: string): Promise<UserAuth | null> {
    const a = matchAccount(await this.accounts(), user, host);
    return a === undefined ? null : { nativeHash: a.nativeHash, sha2Hash: a.sha2Hash };
  }

  /** The privileges of a session of `user` connected from `host`, as of now. */
  async grantsFor(user: string, host: string): Promise<Grants> {
    const a = matchAccount(await this.accounts(), user, host);
    return new Grants(a, a !== undefined && isRoot(a));
  }

  /** Does the session's account hold `priv` globally (e.g. SUPER, PROCESS)? Root always does. */
  async hasGlobalPrivilege(user: string, host: string, priv: string): Promise<boolean> {
    if (user === ROOT.user) return true;
    return (await this.grantsFor(user, host)).hasGlobal(priv);
  }

  async accounts(): Promise<readonly StoredAccount[]> {
    return (await this.catalog.snapshot()).accounts;
  }

  /** Changes accounts in one transaction (see AccountCatalog.update). */
  update<T>(fn: (edit: AccountEdit) => T | Promise<T>): Promise<T> {
    return this.catalog.update(fn);
  }
}

/** SHA1(SHA1(pw)) for mysql_native_password and SHA256(SHA256(pw)) for caching_sha2_password. */
export function hashPassword(password: string): UserAuth {
  if (password === '') return { nativeHash: new Uint8Array(0), sha2Hash: new Uint8Array(0) };
  const twice = (alg: string): Uint8Array => {
    const once = createHash(alg).update(password, 'utf8').digest();
    return new Uint8Array(createHash(alg).update(once).digest());
  };
  return { nativeHash: twice('sha1'), sha2Hash: twice('sha256') };
}
