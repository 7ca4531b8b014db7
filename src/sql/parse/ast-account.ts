/**
 * Account statements: CREATE / ALTER / DROP USER, GRANT, REVOKE, SET PASSWORD.
 * (Placeholder shape; parse-account.ts produces these.)
 */
export interface AccountPlaceholder {
  readonly op: 'unsupported';
  readonly what: string;
}

export type AccountStatement = AccountPlaceholder;
