/**
 * TLS for client connections (`shale serve --tls-cert --tls-key`). Only a server with a TLS
 * context advertises CLIENT_SSL. A client that wants TLS answers the greeting with an SSLRequest
 * (the 32-byte HandshakeResponse41 prefix with CLIENT_SSL, seq 1) and starts the TLS handshake
 * at once; the server wraps the socket with node:tls and reads the real HandshakeResponse (seq 2)
 * over TLS. Spec: /work/shared/reference/mysql-protocol.md §1.3 (SSLRequest).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import type { Connection } from './connection.js';
import { Cap, SERVER_CAPABILITIES } from './constants.js';
import type { Packet } from './packet-decoder.js';

/** Length of an SSLRequest payload: caps u32, max packet u32, charset u8, 23 filler bytes. */
const SSL_REQUEST_LENGTH = 32;

/** What a session reports as Ssl_cipher / Ssl_version. */
export interface TlsSessionInfo {
  /** OpenSSL cipher name, e.g. TLS_AES_256_GCM_SHA384. */
  readonly cipher: string;
  /** Protocol, e.g. TLSv1.3. */
  readonly version: string;
}

/** The capability flags of the greeting: CLIENT_SSL only when TLS is configured. */
export function serverCapabilities(tlsConfigured: boolean): number {
  return tlsConfigured ? SERVER_CAPABILITIES | Cap.SSL : SERVER_CAPABILITIES;
}

/** An SSLRequest: exactly the 32-byte prefix, CLIENT_SSL set, and the server offered SSL. */
export function isSslRequest(payload: Uint8Array, serverCaps: number): boolean {
  if (payload.length !== SSL_REQUEST_LENGTH || !(serverCaps & Cap.SSL)) return false;
  const caps = (payload[0] as number) | ((payload[1] as number) << 8);
  return (caps & Cap.SSL) !== 0;
}

/**
 * Reads the client's reply to the greeting. When TLS is configured and the reply is an
 * SSLRequest, upgrades the connection and returns the HandshakeResponse read over TLS; null
 * once the peer is gone.
 */
export async function readHandshakeReply(conn: Connection, serverCaps: number): Promise<Packet | null> {
  const ctx = conn.deps.tls;
  if (ctx === undefined) return conn.next();
  conn.holdAfterNextPacket();
  const first = await conn.next();
  if (first === null) return null;
  if (!isSslRequest(first.payload, serverCaps)) {
    conn.resumeDecoding();
    return first;
  }
  conn.startTls((plain) => wrapServerSide(plain, ctx));
  return conn.next();
}

function wrapServerSide(plain: Socket, secureContext: SecureContext): TLSSocket {
  const secure = new TLSSocket(plain, { isServer: true, secureContext, requestCert: false, rejectUnauthorized: false });
  secure.setNoDelay(true);
  return secure;
}

/** Cipher and protocol of a TLS connection; undefined for a plain one. */
export function tlsSessionInfo(socket: Socket): TlsSessionInfo | undefined {
  if (!(socket instanceof TLSSocket)) return undefined;
  const cipher = socket.getCipher();
  return { cipher: cipher.name, version: socket.getProtocol() ?? cipher.version };
}

/** The certificate and key files could not be read or used; the message names the file. */
export class TlsConfigError extends Error {
  override readonly name = 'TlsConfigError';
}

/** Loads a PEM certificate (chain) and private key into a context, checking each file on its own. */
export function loadTlsContext(certFile: string, keyFile: string): SecureContext {
  const cert = readPem(certFile, 'certificate');
  const key = readPem(keyFile, 'private key');
  try {
    new X509Certificate(cert);
  } catch (err) {
    throw new TlsConfigError(`TLS certificate file ${certFile} does not hold a PEM certificate (${reason(err)})`);
  }
  try {
    createPrivateKey(key);
  } catch (err) {
    throw new TlsConfigError(`TLS key file ${keyFile} does not hold a usable unencrypted PEM private key (${reason(err)})`);
  }
  try {
    return createSecureContext({ cert, key });
  } catch (err) {
    throw new TlsConfigError(`TLS key file ${keyFile} does not match certificate file ${certFile} (${reason(err)})`);
  }
}

function readPem(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new TlsConfigError(`cannot read TLS ${what} file ${file}: ${reason(err)}`);
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
