/**
 * COM_QUERY: split into statements, run each, send OK or a text result set per statement.
 * Every result but the last carries MORE_RESULTS_EXISTS; the first error ends the sequence.
 * More than one statement without CLIENT_MULTI_STATEMENTS (or after SET_OPTION off) is 1064.
 * Spec: /work/shared/reference/mysql-protocol.md §2 (COM_QUERY), §3.1, §1.4 (MULTI_STATEMENTS).
 */
import { SqlError } from '../errors/index.js';
import { BULK_QUERY_MIN_BYTES, type ExecResult } from '../sql/session/types.js';
import { decodeSurrogateEscape } from '../util/index.js';
import type { Connection } from './connection.js';
import { errorFields } from './error-reply.js';
import { writeErr } from './packets/err.js';
import { SocketRowSink } from './row-stream.js';
import { sendResult } from './send-result.js';

/** MySQL prints at most 80 characters of the text after the error position. */
const NEAR_TEXT_MAX = 80;

export async function handleQuery(conn: Connection, payload: Buffer): Promise<void> {
  const session = conn.requireSession();
  // A large literal-rows INSERT is read from the bytes, without the whole text as one string.
  const bulk = payload.length - 1 < BULK_QUERY_MIN_BYTES ? undefined : session.queryBytes(payload, 1, new SocketRowSink(conn, false, false));
  if (bulk !== undefined) {
    await reply(conn, bulk, false);
    return;
  }
  const sql = decodeSurrogateEscape(payload, 1);
  const pieces = session.splitStatements(sql);
  if (pieces.length === 0) throw SqlError.of('ER_EMPTY_QUERY');
  if (pieces.length > 1 && !conn.multiStatements) throw SqlError.of('ER_PARSE_ERROR', nearText(sql, pieces), 1);
  for (let i = 0; i < pieces.length; i++) {
    const more = i < pieces.length - 1;
    if (!(await reply(conn, session.query(pieces[i] as string, new SocketRowSink(conn, false, more)), more))) return;
  }
}

/** Sends one statement's result (MORE_RESULTS_EXISTS set when `more`) or its error; false after an error. */
async function reply(conn: Connection, running: Promise<ExecResult>, more: boolean): Promise<boolean> {
  let result: ExecResult;
  try {
    result = await running;
  } catch (err) {
    writeErr(conn.writer, errorFields(err, conn.log, 'query'));
    return false;
  }
  const sending = sendResult(conn, result, more, false);
  if (sending !== undefined) await sending;
  return true;
}

/** The text from the second statement on, as MySQL's parser would quote it. */
export function nearText(sql: string, pieces: readonly string[]): string {
  const first = pieces[0] as string;
  const second = pieces[1] as string;
  const at = sql.indexOf(first);
  const from = sql.indexOf(second, at < 0 ? 0 : at + first.length);
  const rest = from < 0 ? pieces.slice(1).join('; ') : sql.slice(from);
  return rest.length <= NEAR_TEXT_MAX ? rest : [...rest].slice(0, NEAR_TEXT_MAX).join('');
}
