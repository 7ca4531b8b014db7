/** Drives Sessions directly (no sockets) on a real embedded store in a private directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openStore } from '../../../src/kv/index.js';
import { createTxnStore } from '../../../src/txn/index.js';
import { createEngine, type ClosableEngine, type ExecResult, type Session } from '../../../src/sql/session/index.js';
import type { Value } from '../../../src/types/index.js';

export interface TestEngine {
  readonly engine: ClosableEngine;
  open(database?: string): Promise<Session>;
  close(): Promise<void>;
}

let nextConnectionId = 1;

export async function openTestEngine(rootPassword?: string): Promise<TestEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'shale-session-'));
  const kv = await openStore(dir);
  const logger = pino({ level: process.env['SHALE_TEST_LOG'] ?? 'silent' });
  const engine = await createEngine(createTxnStore(kv), {
    logger,
    ...(rootPassword === undefined ? {} : { rootPassword }),
  });
  return {
    engine,
    open: (database) =>
      engine.openSession({
        connectionId: nextConnectionId++,
        user: 'root',
        host: '127.0.0.1',
        collationId: 45,
        foundRows: false,
        ...(database === undefined ? {} : { database }),
      }),
    async close() {
      await engine.close();
      await kv.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Result rows as text (NULL -> null), the way the mysql CLI would print them. */
export function textRows(r: ExecResult): Array<Array<string | null>> {
  if (r.kind !== 'rows') throw new Error(`expected rows, got ${JSON.stringify(r)}`);
  return r.rows.map((row) => row.map(cellText));
}

export function columnNames(r: ExecResult): string[] {
  if (r.kind !== 'rows') throw new Error('expected rows');
  return r.columns.map((c) => c.name);
}

export function cellText(v: Value): string | null {
  if (v === null) return null;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return String(v);
}

export async function scalar(s: Session, sql: string): Promise<string | null> {
  const rows = textRows(await s.query(sql));
  const cell = rows[0]?.[0];
  if (cell === undefined) throw new Error(`no rows from ${sql}`);
  return cell;
}

/** Runs the statement and resolves to its errno (throws if it succeeds). */
export async function errnoOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    const errno = (err as { errno?: unknown }).errno;
    if (typeof errno === 'number') return errno;
    throw err;
  }
  throw new Error('expected an error');
}

export const SBTEST_DDL =
  "CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, " +
  "c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id)) /*! ENGINE = innodb */";
