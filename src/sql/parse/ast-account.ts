/**
 * Account statements: CREATE / ALTER / DROP / RENAME USER, SET PASSWORD, GRANT, REVOKE and
 * SHOW GRANTS. parse-account.ts produces these. Passwords are carried as given (plaintext) only
 * until the session hashes them; nothing logs an AccountStatement.
 */

/** `'user'@'host'`; a name written without `@host` means host `%`. Host is lower-cased. */
export interface AccountName {
  readonly user: string;
  readonly host: string;
}

/** An account name, or CURRENT_USER / CURRENT_USER() / USER() (the session's own account). */
export type AccountRef = AccountName | { readonly current: true };

export interface UserSpec {
  readonly account: AccountRef;
  /** From `IDENTIFIED [WITH plugin] BY 'password'`; undefined: no IDENTIFIED clause. */
  readonly password?: string;
}

/** `ON *.*`, `ON db.*` / `ON *` (db undefined: the current database), `ON db.tbl` / `ON tbl`. */
export type PrivilegeLevel =
  | { readonly kind: 'global' }
  | { readonly kind: 'db'; readonly db?: string }
  | { readonly kind: 'table'; readonly db?: string; readonly table: string };

export type AccountStatement =
  | { readonly op: 'createUser'; readonly ifNotExists: boolean; readonly users: readonly UserSpec[] }
  | { readonly op: 'alterUser'; readonly ifExists: boolean; readonly users: readonly UserSpec[] }
  | { readonly op: 'dropUser'; readonly ifExists: boolean; readonly users: readonly AccountName[] }
  | {
      readonly op: 'renameUser';
      readonly pairs: ReadonlyArray<{ readonly from: AccountName; readonly to: AccountName }>;
    }
  /** `SET PASSWORD [FOR user] = 'pw'`; `account` undefined: the session's own account. */
  | { readonly op: 'setPassword'; readonly account?: AccountRef; readonly password: string }
  /**
   * `GRANT privs ON level TO users [WITH GRANT OPTION]`. Privilege names are upper-cased with
   * single spaces (`CREATE TEMPORARY TABLES`); `ALL [PRIVILEGES]` is `ALL`.
   */
  | {
      readonly op: 'grant';
      readonly privileges: readonly string[];
      readonly level: PrivilegeLevel;
      readonly users: readonly AccountRef[];
      readonly grantOption: boolean;
    }
  | {
      readonly op: 'revoke';
      readonly privileges: readonly string[];
      readonly level: PrivilegeLevel;
      readonly users: readonly AccountRef[];
      readonly ifExists: boolean;
      readonly ignoreUnknownUser: boolean;
    }
  /** `REVOKE ALL [PRIVILEGES], GRANT OPTION FROM users`. */
  | {
      readonly op: 'revokeAll';
      readonly users: readonly AccountRef[];
      readonly ifExists: boolean;
      readonly ignoreUnknownUser: boolean;
    }
  /** `SHOW GRANTS [FOR user]`; `account` undefined: the session's own account. */
  | { readonly op: 'showGrants'; readonly account?: AccountRef };

export type AccountOp = AccountStatement['op'];
