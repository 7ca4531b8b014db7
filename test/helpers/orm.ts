/**
 * Shared set-up for the ORM integration tests: one in-process ShaleDB node on the embedded store
 * with a fresh database, and a mysql2 admin connection for checking what the ORM wrote.
 */
import { writeFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { removeDir, startTestNode, type TestNode } from './node.js';

export interface OrmServer {
  readonly port: number;
  readonly database: string;
  /** mysql://root@127.0.0.1:port/database */
  readonly url: string;
  /** A plain mysql2 connection to the test database (for cross-checking the ORM's writes). */
  readonly admin: mysql.Connection;
  /** Runs one statement on the admin connection and returns its rows. */
  rows(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

export async function startOrmServer(database: string): Promise<OrmServer> {
  const node: TestNode = await startTestNode('embedded');
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
  await admin.query(`CREATE DATABASE \`${database}\``);
  await admin.query(`USE \`${database}\``);
  return {
    port: node.port,
    database,
    url: `mysql://root@127.0.0.1:${node.port}/${database}`,
    admin,
    async rows(sql, params = []) {
      const [result] = await admin.query(sql, [...params]);
      if (!Array.isArray(result)) throw new Error(`not a row-returning statement: ${sql}`);
      return result as Record<string, unknown>[];
    },
    async stop() {
      await admin.end().catch(() => undefined);
      await node.stop();
      removeDir(node.dataDir);
    },
  };
}

/** With ORM_LOG_DIR set, writes the statements an ORM sent to <dir>/<name>.log (for debugging). */
export function dumpLog(name: string, statements: readonly string[]): void {
  const dir = process.env['ORM_LOG_DIR'];
  if (dir !== undefined) writeFileSync(`${dir}/${name}.log`, statements.join('\n') + '\n');
}
