/**
 * Accounts and grants in the catalog, so every SQL node sharing the store sees the same ones.
 *
 * | key                          | value                                   |
 * |------------------------------|-----------------------------------------|
 * | metaKey('account', user, host) | StoredAccount JSON (accounts-record.ts) |
 *
 * Every change runs in one TxnStore.update() transaction that rewrites the changed accounts and
 * bumps the global schema version, exactly like a DDL. Readers cache the decoded accounts per
 * schema version: a snapshot costs one read of the version key (which the etcd backend gets with
 * the start revision for free) unless the version moved, and an account change on any node is
 * seen by every node at its next snapshot.
 */
import { metaKey } from '../codec/index.js';
import type { Txn, TxnStore } from '../txn/types.js';
import { keyNext } from '../util/index.js';
import { decodeAccount, encodeAccount, type StoredAccount } from './accounts-record.js';
import { prefixRange } from './meta-keys.js';
import { bumpSchemaVersion, readSchemaVersion } from './meta-store.js';

export type { DbGrant, StoredAccount, TableGrant } from './accounts-record.js';

const SCAN_PAGE = 256;

export function accountKey(user: string, host: string): Uint8Array {
  return metaKey('account', user, host);
}

/** The accounts as of one schema version. */
export interface AccountSnapshot {
  readonly version: bigint;
  readonly accounts: readonly StoredAccount[];
}

/** What an account statement sees and changes inside its transaction. */
export interface AccountEdit {
  /** Every account as of the transaction's snapshot. */
  readonly accounts: readonly StoredAccount[];
  /** Creates or replaces the account stored under (a.user, a.host). */
  put(a: StoredAccount): void;
  remove(user: string, host: string): void;
}

export class AccountCatalog {
  private newest: AccountSnapshot | null = null;

  constructor(private readonly store: TxnStore) {}

  /** The accounts at the latest committed state. */
  snapshot(): Promise<AccountSnapshot> {
    return this.store.view(async (txn) => {
      const version = await readSchemaVersion(txn);
      const cached = this.newest;
      if (cached !== null && cached.version === version) return cached;
      const snap: AccountSnapshot = { version, accounts: await loadAccounts(txn) };
      if (this.newest === null || version > this.newest.version) this.newest = snap;
      return snap;
    });
  }

  /**
   * Runs `fn` against the current accounts in a read-write transaction (retried from scratch on
   * a conflict); if it changed anything, the schema version is bumped in the same transaction.
   */
  update<T>(fn: (edit: AccountEdit) => T | Promise<T>): Promise<T> {
    return this.store.update(async (txn) => {
      let changed = false;
      const edit: AccountEdit = {
        accounts: await loadAccounts(txn),
        put(a) {
          txn.put(accountKey(a.user, a.host), encodeAccount(a));
          changed = true;
        },
        remove(user, host) {
          txn.delete(accountKey(user, host));
          changed = true;
        },
      };
      const result = await fn(edit);
      if (changed) await bumpSchemaVersion(txn);
      return result;
    });
  }

  /** First start: stores `root` when the store holds no account at all. True if it did. */
  bootstrap(root: StoredAccount): Promise<boolean> {
    return this.update((edit) => {
      if (edit.accounts.length > 0) return false;
      edit.put(root);
      return true;
    });
  }
}

async function loadAccounts(txn: Txn): Promise<StoredAccount[]> {
  const range = prefixRange(metaKey('account'));
  const out: StoredAccount[] = [];
  let start = range.start;
  for (;;) {
    const page = await txn.scan({ start, end: range.end }, { limit: SCAN_PAGE });
    for (const p of page) out.push(decodeAccount(p.value));
    const last = page[page.length - 1];
    if (page.length < SCAN_PAGE || last === undefined) return out;
    start = keyNext(last.key);
  }
}
