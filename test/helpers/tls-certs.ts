/**
 * A self-signed certificate for 127.0.0.1/localhost and its key, made with the openssl CLI in a
 * fresh temp directory, plus a second key that matches no certificate.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './node.js';

export interface TestCerts {
  readonly dir: string;
  readonly cert: string;
  readonly key: string;
  /** A valid key of another key pair (mismatch tests). */
  readonly otherKey: string;
}

export function makeTestCerts(): TestCerts {
  const dir = tempDir('tls');
  const cert = join(dir, 'server-cert.pem');
  const key = join(dir, 'server-key.pem');
  const otherKey = join(dir, 'other-key.pem');
  const quiet: ExecFileSyncOptions = { stdio: ['ignore', 'ignore', 'pipe'] };
  execFileSync(
    'openssl',
    [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
      '-keyout', key, '-out', cert,
      '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    quiet,
  );
  execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', otherKey], quiet);
  return { dir, cert, key, otherKey };
}
