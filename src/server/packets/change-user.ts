/**
 * COM_CHANGE_USER request: 0x11, user NUL, auth (1-byte length with SECURE_CONNECTION, else
 * NUL-terminated), schema NUL, then (if present) charset u16, plugin NUL, connect attrs.
 * Trailing fields are gated on capabilities and on the bytes remaining.
 * Spec: /work/shared/reference/mysql-protocol.md §2 (COM_CHANGE_USER).
 */
import { ByteReader } from '../byte-reader.js';
import { Cap } from '../constants.js';

export interface ChangeUserRequest {
  readonly user: string;
  readonly authResponse: Buffer;
  readonly database: string;
  /** null when the client did not send one (keep the current collation). */
  readonly charset: number | null;
  readonly authPlugin: string;
}

/** `payload` includes the command byte. Throws MalformedPacket. */
export function decodeChangeUser(payload: Buffer, effectiveCaps: number): ChangeUserRequest {
  const r = new ByteReader(payload, 1);
  const user = r.nulString();
  let authResponse: Buffer;
  if (r.remaining() === 0) authResponse = Buffer.alloc(0);
  else if (effectiveCaps & Cap.SECURE_CONNECTION) authResponse = r.bytes(r.u8());
  else authResponse = r.nulBytes();
  const database = r.remaining() > 0 ? r.nulStringOrRest() : '';
  const charset = r.remaining() >= 2 ? r.u16() : null;
  const authPlugin = effectiveCaps & Cap.PLUGIN_AUTH && r.remaining() > 0 ? r.nulStringOrRest() : '';
  return { user, authResponse, database, charset, authPlugin };
}
