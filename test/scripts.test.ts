/**
 * Runs every SQL script under test/scripts/ over a real socket, through the text protocol
 * (mysql2 query) and the prepared protocol (mysql2 execute), against every KV backend, and on
 * the embedded store also against `shale serve --workers 2` (the primary deals connections out
 * in turn, so a script's connections land on both worker processes).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, removeDir, spawnNode, startTestNode, tempDir, type TestNode } from './helpers/node.js';
import { cellText, parseScript, type ScriptRecord } from './helpers/script.js';

const SCRIPTS = join(__dirname, 'scripts');

function listScripts(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return listScripts(full);
      return name.endsWith('.test') ? [full] : [];
    })
    .sort();
}

type Protocol = 'text' | 'prepared';

interface RunState {
  readonly port: number;
  readonly db: string;
  readonly conns: Map<string, mysql.Connection>;
  current: string;
}

async function connection(state: RunState): Promise<mysql.Connection> {
  let c = state.conns.get(state.current);
  if (!c) {
    c = await mysql.createConnection({
      host: '127.0.0.1',
      port: state.port,
      user: 'root',
      database: state.db,
      rowsAsArray: true,
      dateStrings: true,
      // JSON columns as the server's text (MySQL's normalized form), not parsed objects.
      jsonStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      multipleStatements: false,
    });
    state.conns.set(state.current, c);
  }
  return c;
}

async function run(c: mysql.Connection, sql: string, protocol: Protocol): Promise<[unknown, mysql.FieldPacket[] | undefined]> {
  if (protocol === 'text') return (await c.query(sql)) as [unknown, mysql.FieldPacket[] | undefined];
  return (await c.execute(sql)) as [unknown, mysql.FieldPacket[] | undefined];
}

function where(file: string, rec: ScriptRecord, protocol: Protocol): string {
  return `${relative(SCRIPTS, file)}:${rec.line} [${protocol}]`;
}

async function runRecord(state: RunState, file: string, rec: ScriptRecord, protocol: Protocol): Promise<void> {
  if (rec.kind === 'connection') {
    state.current = rec.name;
    return;
  }
  const c = await connection(state);
  const at = where(file, rec, protocol);
  if (rec.kind === 'statement') {
    if (rec.error) {
      const err = await run(c, rec.sql, protocol).then(
        () => undefined,
        (e: unknown) => e as { errno?: number; message?: string },
      );
      expect(err?.errno, `${at}: expected error ${rec.error.errno} from: ${rec.sql}`).toBe(rec.error.errno);
      if (rec.error.text) expect(err?.message, at).toContain(rec.error.text);
    } else {
      await run(c, rec.sql, protocol).catch((e: unknown) => {
        throw new Error(`${at}: ${rec.sql}\n  failed: ${(e as Error).message}`);
      });
    }
    return;
  }
  const [rows, fields] = await run(c, rec.sql, protocol).catch((e: unknown) => {
    throw new Error(`${at}: ${rec.sql}\n  failed: ${(e as Error).message}`);
  });
  let actual = (rows as unknown[][]).map((r) => r.map(cellText).join(' | '));
  if (rec.sorted) actual = [...actual].sort();
  if (rec.colnames) actual = [(fields ?? []).map((f) => f.name).join(' | '), ...actual];
  let expected = [...rec.expected];
  if (rec.sorted) expected = rec.colnames ? [expected[0] ?? '', ...expected.slice(1).sort()] : expected.sort();
  expect(actual, `${at}: ${rec.sql}`).toEqual(expected);
}

/** Where the scripts run: a node per backend, plus two worker processes on the embedded store. */
function targets(): Array<{ readonly name: string; start(): Promise<TestNode> }> {
  const out = backends().map((backend) => ({ name: backend, start: () => startTestNode(backend) }));
  if (!backends().includes('embedded')) return out;
  const workers = async (): Promise<TestNode> => {
    const dataDir = tempDir('workers');
    const spawned = await spawnNode(dataDir, ['--workers', '2']);
    return { port: spawned.port, dataDir, stop: () => spawned.stop() };
  };
  return [...out, { name: 'embedded, --workers 2', start: workers }];
}

for (const target of targets()) {
  describe(`SQL scripts on ${target.name}`, () => {
    let node: TestNode;
    beforeAll(async () => {
      node = await target.start();
    });
    afterAll(async () => {
      await node.stop();
      removeDir(node.dataDir);
    });

    const files = listScripts(SCRIPTS);
    for (const protocol of ['text', 'prepared'] as const) {
      for (const file of files) {
        it(`${relative(SCRIPTS, file)} (${protocol})`, async () => {
          const db = `s_${relative(SCRIPTS, file).replace(/\W/g, '_')}_${protocol}`;
          const admin = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
          await admin.query(`DROP DATABASE IF EXISTS \`${db}\``);
          await admin.query(`CREATE DATABASE \`${db}\``);
          await admin.end();
          const state: RunState = { port: node.port, db, conns: new Map(), current: 'default' };
          try {
            for (const rec of parseScript(readFileSync(file, 'utf8'))) await runRecord(state, file, rec, protocol);
          } finally {
            for (const c of state.conns.values()) await c.end().catch(() => undefined);
          }
        });
      }
    }
  });
}
