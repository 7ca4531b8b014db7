import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DumpConnection } from '../../src/cli/import/import-connection.js';
import { describeSqlError } from '../../src/cli/import/import-connection.js';
import { excerpt, formatBytes, formatDuration } from '../../src/cli/import/import-format.js';
import { importOptions, parseImportUrl, type ImportOptions } from '../../src/cli/import/import-options.js';
import { progressLine } from '../../src/cli/import/import-progress.js';
import { formatImportReport, importExitCode } from '../../src/cli/import/import-report.js';
import { runImport, type ImportDeps } from '../../src/cli/import/import-run.js';

/** A mysql2-like server error. */
function serverError(errno: number, code: string, message: string): Error {
  return Object.assign(new Error(message), { errno, code, sqlState: '42S02', sqlMessage: message });
}

/** A fake connection: records statements, fails those `fail` matches, affects one row per INSERT. */
function fakeConnection(fail: (sql: string) => Error | undefined = () => undefined): { conn: DumpConnection; sent: string[]; closed: () => boolean } {
  const sent: string[] = [];
  let closed = false;
  return {
    sent,
    closed: () => closed,
    conn: {
      async run(sql: Buffer): Promise<number> {
        const text = sql.toString('utf8');
        sent.push(text);
        const err = fail(text);
        if (err) throw err;
        return text.startsWith('INSERT') ? (text.match(/\(/g)?.length ?? 0) : 0;
      },
      async close(): Promise<void> {
        closed = true;
      },
    },
  };
}

const DUMP = [
  '-- header',
  '/*!40101 SET NAMES utf8mb4 */;',
  'CREATE TABLE t (a INT);',
  "INSERT INTO t VALUES (1),(2),(3);",
  'INSERT INTO missing VALUES',
  '  (1);',
  'INSERT INTO t VALUES (4);',
  '',
].join('\n');

function deps(text: string, conn: DumpConnection, chunk = 7): ImportDeps {
  const bytes = Buffer.from(text);
  return {
    connect: async () => conn,
    fileSize: async () => bytes.length,
    readFile: async function* () {
      for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
    },
    progressStream: new PassThrough(),
  };
}

const opts = (continueOnError: boolean): ImportOptions => ({
  file: 'dump.sql',
  target: { host: '127.0.0.1', port: 4000, user: 'root', password: 'secret' },
  continueOnError,
  progress: false,
});

const missing = (sql: string): Error | undefined =>
  sql.includes('missing') ? serverError(1146, 'ER_NO_SUCH_TABLE', "Table 'db.missing' doesn't exist") : undefined;

describe('runImport', () => {
  it('runs every statement in order and sums the affected rows', async () => {
    const f = fakeConnection();
    const r = await runImport(opts(false), deps(DUMP, f.conn));
    expect(f.sent).toEqual([
      '/*!40101 SET NAMES utf8mb4 */',
      'CREATE TABLE t (a INT)',
      'INSERT INTO t VALUES (1),(2),(3)',
      'INSERT INTO missing VALUES\n  (1)',
      'INSERT INTO t VALUES (4)',
    ]);
    expect(r).toMatchObject({ status: 'ok', statements: 5, failed: 0, rowsAffected: 5, bytesDone: DUMP.length, totalBytes: DUMP.length });
    expect(f.closed()).toBe(true);
    expect(importExitCode(r.status)).toBe(0);
    expect(formatImportReport(r)).toMatch(/^Imported: dump\.sql into mysql:\/\/root@127\.0\.0\.1:4000\n {2}statements {2}5 succeeded, 0 failed\n/);
    expect(formatImportReport(r)).not.toContain('secret');
  });

  it('stops at the first failed statement with its number, line, error and excerpt', async () => {
    const f = fakeConnection(missing);
    const r = await runImport(opts(false), deps(DUMP, f.conn));
    expect(f.sent).toHaveLength(4);
    expect(r).toMatchObject({ status: 'failed', stopped: true, statements: 4, failed: 1, rowsAffected: 3 });
    expect(r.failures[0]).toMatchObject({ index: 4, line: 5, errno: 1146, code: 'ER_NO_SUCH_TABLE', excerpt: 'INSERT INTO missing VALUES (1)' });
    const report = formatImportReport(r);
    expect(report).toContain("error: statement 4 (line 5): ERROR 1146 (42S02): Table 'db.missing' doesn't exist\n    INSERT INTO missing VALUES (1)");
    expect(report).toContain('Import stopped: dump.sql');
    expect(importExitCode(r.status)).toBe(1);
  });

  it('--continue-on-error runs on, counts and reports the failures', async () => {
    const f = fakeConnection(missing);
    const r = await runImport(opts(true), deps(DUMP, f.conn, 1));
    expect(f.sent).toHaveLength(5);
    expect(r).toMatchObject({ status: 'failed', stopped: false, statements: 5, failed: 1, rowsAffected: 4 });
    expect([...r.failureCounts]).toEqual([['ER_NO_SUCH_TABLE (1146)', 1]]);
    const report = formatImportReport(r);
    expect(report).toContain('Imported with errors');
    expect(report).toContain('errors      ER_NO_SUCH_TABLE (1146) ×1');
    expect(report).toContain('statement 4 (line 5)');
  });

  it('maps a syntax error\'s "at line N" to the line in the file', async () => {
    const f = fakeConnection((sql) =>
      sql.includes(' SELEC\n') ? serverError(1064, 'ER_PARSE_ERROR', "You have an error in your SQL syntax; near 'SELEC' at line 3") : undefined,
    );
    const r = await runImport(opts(false), deps('SELECT 1;\n\nCREATE TABLE x (\n a INT,\n SELEC\n);\n', f.conn));
    expect(r.failures[0]).toMatchObject({ index: 2, line: 3, errorLine: 5 });
    expect(formatImportReport(r)).toContain('statement 2 (line 3, error at line 5)');
  });

  it('a lost connection ends the import with status error (exit 2), even with --continue-on-error', async () => {
    const lost = Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true });
    const f = fakeConnection((sql) => (sql.includes('(4)') ? lost : undefined));
    const r = await runImport(opts(true), deps(DUMP, f.conn));
    expect(r.status).toBe('error');
    expect(r.fatal).toBe('lost the connection at statement 5 (line 7): Connection lost: The server closed the connection.');
    expect(importExitCode(r.status)).toBe(2);
  });

  it('reports a refused connection and an unreadable file as errors', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4000'), { code: 'ECONNREFUSED' });
    const base = deps(DUMP, fakeConnection().conn);
    const r1 = await runImport(opts(false), { ...base, connect: () => Promise.reject(refused) });
    expect(r1).toMatchObject({ status: 'error', fatal: 'cannot connect to mysql://root@127.0.0.1:4000: connect ECONNREFUSED 127.0.0.1:4000' });
    const r2 = await runImport({ ...opts(false), file: '/nonexistent/dump.sql' }, { progressStream: new PassThrough() });
    expect(r2.status).toBe('error');
    expect(r2.fatal).toMatch(/^cannot read \/nonexistent\/dump\.sql: ENOENT/);
    expect(formatImportReport(r2)).toMatch(/^error: cannot read/);
  });

  it('reports a file that ends inside a string without sending it', async () => {
    const f = fakeConnection();
    const r = await runImport(opts(false), deps("SELECT 1;\nINSERT INTO t VALUES ('oops);\n", f.conn));
    expect(f.sent).toEqual(['SELECT 1']);
    expect(r.failures[0]).toMatchObject({ index: 2, line: 2, message: 'the file ends inside a string opened at line 2' });
    expect(formatImportReport(r)).toContain("statement 2 (line 2): the file ends inside a string opened at line 2\n    INSERT INTO t VALUES ('oops);");
  });

  it('stops with a clear message when a statement outgrows the limit', async () => {
    const f = fakeConnection();
    const r = await runImport(opts(true), { ...deps("SELECT 1;\nSELECT '" + 'x'.repeat(200), f.conn), maxStatementBytes: 100 });
    expect(r).toMatchObject({ status: 'failed', stopped: true, failed: 1 });
    expect(r.failures[0]?.message).toMatch(/^the statement at line 2 is longer than 0 MiB \(an unterminated string or a missing delimiter ";"\?\)/);
  });
});

describe('import helpers', () => {
  it('parses the target URL', () => {
    expect(parseImportUrl('mysql://app:p%40ss@db.example:3307/shop')).toEqual({
      host: 'db.example', port: 3307, user: 'app', password: 'p@ss', database: 'shop',
    });
    expect(parseImportUrl('mysql://[::1]')).toEqual({ host: '::1', port: 4000, user: 'root', password: '' });
    expect(() => parseImportUrl('postgres://x')).toThrow(/unsupported scheme/);
  });

  it('takes --password when the URL has none', () => {
    const flags = { url: parseImportUrl('mysql://app@h/db'), host: 'x', port: 1, user: 'u', password: 'pw', progress: true };
    expect(importOptions('f.sql', flags).target).toEqual({ host: 'h', port: 4000, user: 'app', password: 'pw', database: 'db' });
    expect(importOptions('f.sql', { host: 'x', port: 1, user: 'u', progress: false })).toEqual({
      file: 'f.sql', target: { host: 'x', port: 1, user: 'u', password: '' }, continueOnError: false, progress: false,
    });
  });

  it('classifies mysql2 errors and repairs UTF-8 text decoded as binary', () => {
    const mojibake = Buffer.from("near 'Zoë'", 'utf8').toString('latin1');
    expect(describeSqlError(Object.assign(new Error('x'), { errno: 1064, code: 'ER_PARSE_ERROR', sqlState: '42000', sqlMessage: mojibake }))).toEqual({
      errno: 1064, code: 'ER_PARSE_ERROR', sqlState: '42000', message: "near 'Zoë'", fatal: false,
    });
    expect(describeSqlError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toEqual({ code: 'ECONNREFUSED', message: 'refused', fatal: true });
  });

  it('formats sizes, durations, excerpts and the plain progress line', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
    expect(formatDuration(4200)).toBe('4.2s');
    expect(formatDuration(83_500)).toBe('1m24s');
    expect(formatDuration(3_725_000)).toBe('1h02m');
    expect(excerpt(Buffer.from('INSERT INTO t\n  VALUES (1)'))).toBe('INSERT INTO t VALUES (1)');
    expect(excerpt(Buffer.from('x'.repeat(500)), 10)).toBe('xxxxxxxxxx …');
    expect(progressLine({ bytes: 50 * 1024 ** 2, total: 200 * 1024 ** 2, statements: 1200, errors: 2 }, 10_000)).toBe(
      'import: 50.0 MiB / 200.0 MiB (25%), 1,200 statements, 120 statements/s, 2 errors, ETA 30.0s',
    );
  });
});
