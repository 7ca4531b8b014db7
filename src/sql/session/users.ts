import { createHash } from 'node:crypto';
import type { UserAuth } from './types.js';

/**
 * Accounts known to the engine. For now only `root`, accepted from any host. Only the double
 * hashes the auth plugins verify against are kept; the plaintext password is dropped at once.
 */
export class UserRegistry {
  private readonly accounts = new Map<string, UserAuth>();

  constructor(rootPassword: string) {
    this.accounts.set('root', hashPassword(rootPassword));
  }

  lookup(user: string, _host: string): UserAuth | null {
    return this.accounts.get(user) ?? null;
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
