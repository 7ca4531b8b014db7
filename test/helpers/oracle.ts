/**
 * Runs SQL scripts against any MySQL-protocol server (e.g. a private MariaDB) and prints the
 * differences from the expected results, to check what MySQL-family servers really do:
 *   npx tsx test/helpers/oracle.ts <port> test/scripts/basic/crud.test ...
 */
import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { cellText, parseScript } from './script.js';

async function main(): Promise<void> {
  const [portArg, ...files] = process.argv.slice(2);
  for (const file of files) {
    const db = `oracle_${Date.now()}`;
    const admin = await mysql.createConnection({ host: '127.0.0.1', port: Number(portArg), user: 'root' });
    await admin.query(`CREATE DATABASE ${db}`);
    const conns = new Map<string, mysql.Connection>();
    let current = 'default';
    for (const rec of parseScript(readFileSync(file, 'utf8'))) {
      if (rec.kind === 'connection') {
        current = rec.name;
        continue;
      }
      let c = conns.get(current);
      if (!c) {
        c = await mysql.createConnection({ host: '127.0.0.1', port: Number(portArg), user: 'root', database: db, rowsAsArray: true, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
        conns.set(current, c);
      }
      try {
        const [rows, fields] = (await c.query(rec.sql)) as [unknown, mysql.FieldPacket[] | undefined];
        if (rec.kind === 'statement') {
          if (rec.error) console.log(`${file}:${rec.line}: expected error ${rec.error.errno}, got success`);
          continue;
        }
        let actual = (rows as unknown[][]).map((r) => r.map(cellText).join(' | '));
        if (rec.sorted) actual.sort();
        if (rec.colnames) actual = [(fields ?? []).map((f) => f.name).join(' | '), ...actual];
        const expected = rec.sorted && !rec.colnames ? [...rec.expected].sort() : [...rec.expected];
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          console.log(`${file}:${rec.line}: ${rec.sql}\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}`);
        }
      } catch (e) {
        const err = e as { errno?: number; message?: string };
        if (rec.kind === 'statement' && rec.error) {
          if (err.errno !== rec.error.errno || (rec.error.text && !err.message?.includes(rec.error.text))) {
            console.log(`${file}:${rec.line}: expected ${rec.error.errno} ${rec.error.text ?? ''}, got ${err.errno} ${err.message}`);
          }
        } else console.log(`${file}:${rec.line}: ${rec.sql}\n  error ${err.errno} ${err.message}`);
      }
    }
    for (const c of conns.values()) await c.end();
    await admin.query(`DROP DATABASE ${db}`);
    await admin.end();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
