/**
 * Turns anything a handler throws into the fields of an ERR packet: SqlErrors as they are,
 * malformed packets as 1835, anything else (a bug) is logged on one line and sent as 1105
 * with its message. Spec: /work/shared/reference/mysql-protocol.md §3.4, §5.
 */
import type { Logger } from 'pino';
import { SqlError, isSqlError } from '../errors/index.js';
import type { ErrFields } from './packets/err.js';
import { MalformedPacket } from './protocol-errors.js';

export function errorFields(err: unknown, log: Logger, what: string): ErrFields {
  if (isSqlError(err)) return err;
  if (err instanceof MalformedPacket) {
    log.debug({ what, reason: err.message }, 'malformed packet');
    return SqlError.of('ER_MALFORMED_PACKET');
  }
  const message = err instanceof Error ? err.message : String(err);
  log.error({ what, err: err instanceof Error ? { message, stack: err.stack } : message }, 'internal error');
  return SqlError.of('ER_UNKNOWN_ERROR', message);
}
