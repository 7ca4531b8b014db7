/**
 * Small commands: INIT_DB, PING, STATISTICS, FIELD_LIST, SET_OPTION, RESET_CONNECTION.
 * Spec: /work/shared/reference/mysql-protocol.md §2 (command table).
 */
import { SqlError } from '../errors/index.js';
import type { ServerStats } from '../sql/session/types.js';
import { ByteReader } from './byte-reader.js';
import { columnDefinition } from './column-meta.js';
import type { Connection } from './connection.js';
import { writeColumnDefinition } from './packets/column-definition.js';
import { writeEof } from './packets/eof.js';
import { writeEmptyOk } from './packets/ok.js';

export async function handleInitDb(conn: Connection, payload: Buffer): Promise<void> {
  await conn.requireSession().useDatabase(payload.toString('utf8', 1));
  writeEmptyOk(conn.writer, conn.status());
}

export function handlePing(conn: Connection): void {
  writeEmptyOk(conn.writer, conn.status());
}

/** The `mysqladmin status` line. */
export function statisticsText(s: ServerStats): string {
  const qps = s.uptimeSeconds > 0 ? s.questions / s.uptimeSeconds : 0;
  return (
    `Uptime: ${s.uptimeSeconds}  Threads: ${s.threads}  Questions: ${s.questions}  ` +
    `Slow queries: ${s.slowQueries}  Opens: 0  Flush tables: 1  Open tables: ${s.openTables}  ` +
    `Queries per second avg: ${qps.toFixed(3)}`
  );
}

/** COM_STATISTICS answers with a bare string packet. */
export function handleStatistics(conn: Connection): void {
  const w = conn.writer;
  w.begin();
  w.string(statisticsText(conn.deps.engine.stats()));
  w.end();
}

/** Column definitions, each followed by its lenenc default, then EOF (no column count). */
export async function handleFieldList(conn: Connection, payload: Buffer): Promise<void> {
  const table = new ByteReader(payload, 1).nulStringOrRest();
  const cols = await conn.requireSession().fieldList(table);
  const w = conn.writer;
  for (const c of cols) writeColumnDefinition(w, columnDefinition(c, conn.collationId), c.defaultText ?? null);
  writeEof(w, 0, conn.status());
}

/** Option 0 turns multi-statements on, 1 off; MySQL answers with EOF. */
export function handleSetOption(conn: Connection, payload: Buffer): void {
  const option = new ByteReader(payload, 1).u16();
  if (option > 1) throw SqlError.of('ER_UNKNOWN_COM_ERROR');
  conn.multiStatements = option === 0;
  writeEof(conn.writer, 0, conn.status());
}

export async function handleResetConnection(conn: Connection): Promise<void> {
  conn.statements.closeAll();
  await conn.requireSession().reset();
  writeEmptyOk(conn.writer, conn.status());
}
