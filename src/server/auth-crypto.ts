/**
 * Scrambles and password verification for mysql_native_password and caching_sha2_password
 * (fast auth only: the engine stores SHA256(SHA256(pw)), so the scramble can always be
 * verified and full authentication is never needed).
 * Spec: /work/shared/reference/mysql-protocol.md §1.5.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 20 random bytes in 1..127, never NUL and never '$' (as MySQL draws them). */
export function generateScramble(): Buffer {
  const b = randomBytes(20);
  for (let i = 0; i < b.length; i++) {
    let v = (b[i] as number) & 0x7f;
    if (v === 0 || v === 0x24) v += 1;
    b[i] = v;
  }
  return b;
}

function hash(alg: 'sha1' | 'sha256', ...parts: Uint8Array[]): Buffer {
  const h = createHash(alg);
  for (const p of parts) h.update(p);
  return h.digest();
}

function xor(a: Uint8Array, b: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] as number) ^ (b[i] as number);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * token = SHA1(pw) XOR SHA1(scramble ‖ SHA1(SHA1(pw))); `stage2` = SHA1(SHA1(pw)).
 * An empty password is an empty stage2 and must come with an empty token.
 */
export function verifyNative(token: Uint8Array, scramble: Uint8Array, stage2: Uint8Array): boolean {
  if (stage2.length === 0 || token.length === 0) return stage2.length === 0 && token.length === 0;
  if (token.length !== 20 || stage2.length !== 20) return false;
  const stage1 = xor(token, hash('sha1', scramble, stage2));
  return sameBytes(hash('sha1', stage1), stage2);
}

/**
 * token = SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) ‖ scramble); `h2` = SHA256(SHA256(pw)).
 */
export function verifySha2(token: Uint8Array, scramble: Uint8Array, h2: Uint8Array): boolean {
  if (h2.length === 0 || token.length === 0) return h2.length === 0 && token.length === 0;
  if (token.length !== 32 || h2.length !== 32) return false;
  const s1 = xor(token, hash('sha256', h2, scramble));
  return sameBytes(hash('sha256', s1), h2);
}

/** Client side of mysql_native_password (tests and tools). */
export function nativeToken(password: string, scramble: Uint8Array): Buffer {
  if (password === '') return Buffer.alloc(0);
  const s1 = hash('sha1', Buffer.from(password, 'utf8'));
  return xor(s1, hash('sha1', scramble, hash('sha1', s1)));
}

/** Client side of caching_sha2_password (tests and tools). */
export function sha2Token(password: string, scramble: Uint8Array): Buffer {
  if (password === '') return Buffer.alloc(0);
  const s1 = hash('sha256', Buffer.from(password, 'utf8'));
  return xor(s1, hash('sha256', hash('sha256', s1), scramble));
}
