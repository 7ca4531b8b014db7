/**
 * Runs `shale import`: streams the dump file through the statement splitter and executes the
 * statements in order over one connection, with progress. Stops at the first failed statement
 * unless continueOnError; a lost connection always stops (status 'error').
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { connectForImport, describeSqlError, type DumpConnection, type SqlFailure } from './import-connection.js';
import { excerpt } from './import-format.js';
import { describeImportTarget, type ImportOptions, type ImportTarget } from './import-options.js';
import { startProgress, type ImportProgress, type ProgressState, type ProgressStream } from './import-progress.js';
import { SplitError, StatementSplitter, type SplitStatement } from './statement-splitter.js';

/** One statement that failed. */
export interface StatementFailure {
  readonly index: number;
  /** Line of the statement's first character. */
  readonly line: number;
  /** File line of a syntax error ("… at line N" of the statement), when the server names one. */
  readonly errorLine?: number;
  readonly errno?: number;
  readonly code?: string;
  readonly sqlState?: string;
  readonly message: string;
  readonly excerpt: string;
}

/** ok: every statement succeeded; failed: statement errors; error: no connection, unreadable file. */
export type ImportStatus = 'ok' | 'failed' | 'error';

export interface ImportResult {
  readonly status: ImportStatus;
  readonly file: string;
  readonly target: string;
  readonly totalBytes: number;
  /** Bytes of the file behind the last statement that ran. */
  readonly bytesDone: number;
  /** Statements sent (or rejected before sending). */
  readonly statements: number;
  readonly failed: number;
  readonly rowsAffected: number;
  readonly elapsedMs: number;
  /** The first failures, in order (at most MAX_KEPT_FAILURES). */
  readonly failures: readonly StatementFailure[];
  /** Failures per error ("ER_… (1235)" → count). */
  readonly failureCounts: ReadonlyMap<string, number>;
  /** The import stopped at the first failure (no --continue-on-error). */
  readonly stopped: boolean;
  /** Why the import could not go on (connection, file), for status 'error'. */
  readonly fatal?: string;
}

export const MAX_KEPT_FAILURES = 10;
/** With --continue-on-error, failures printed as they happen (the rest are only counted). */
const MAX_LOGGED_FAILURES = 100;
const READ_CHUNK_BYTES = 1024 * 1024;

export interface ImportDeps {
  readonly connect?: (t: ImportTarget) => Promise<DumpConnection>;
  readonly readFile?: (path: string) => AsyncIterable<Buffer>;
  readonly fileSize?: (path: string) => Promise<number>;
  readonly progressStream?: ProgressStream;
  readonly now?: () => number;
  readonly maxStatementBytes?: number;
}

/** One line describing a failure (also printed live with --continue-on-error). */
export function failureLine(f: StatementFailure): string {
  const err = f.errno !== undefined ? `ERROR ${f.errno} (${f.sqlState ?? 'HY000'}): ` : '';
  const at = f.errorLine !== undefined && f.errorLine !== f.line ? `, error at line ${f.errorLine}` : '';
  return `statement ${f.index} (line ${f.line}${at}): ${err}${f.message}\n    ${f.excerpt}`;
}

function failureOf(stmt: SplitStatement, info: SqlFailure | { message: string }): StatementFailure {
  const m = 'errno' in info && info.errno !== undefined ? / at line (\d+)$/.exec(info.message) : null;
  const rel = m ? Number(m[1]) : undefined;
  return {
    index: stmt.index,
    line: stmt.line,
    ...(rel !== undefined && rel >= 1 ? { errorLine: stmt.line + rel - 1 } : {}),
    ...('errno' in info && info.errno !== undefined ? { errno: info.errno } : {}),
    ...('code' in info && info.code !== undefined ? { code: info.code } : {}),
    ...('sqlState' in info && info.sqlState !== undefined ? { sqlState: info.sqlState } : {}),
    message: info.message,
    excerpt: excerpt(stmt.sql),
  };
}

function countKey(f: StatementFailure): string {
  return f.errno !== undefined ? `${f.code ?? 'ERROR'} (${f.errno})` : 'not sent';
}

/** Thrown inside the run loop to end it. */
class Stop extends Error {}

export async function runImport(opts: ImportOptions, deps: ImportDeps = {}): Promise<ImportResult> {
  const now = deps.now ?? Date.now;
  const started = now();
  const target = describeImportTarget(opts.target);
  const state: ProgressState = { bytes: 0, total: 0, statements: 0, errors: 0 };
  const failures: StatementFailure[] = [];
  const failureCounts = new Map<string, number>();
  let rowsAffected = 0;
  let fatal: string | undefined;
  let stopped = false;
  const result = (): ImportResult => ({
    status: fatal !== undefined ? 'error' : state.errors > 0 ? 'failed' : 'ok',
    file: opts.file,
    target,
    totalBytes: state.total,
    bytesDone: state.bytes,
    statements: state.statements,
    failed: state.errors,
    rowsAffected,
    elapsedMs: now() - started,
    failures,
    failureCounts,
    stopped,
    ...(fatal !== undefined ? { fatal } : {}),
  });

  try {
    state.total = await (deps.fileSize ?? fileSize)(opts.file);
  } catch (err) {
    fatal = `cannot read ${opts.file}: ${err instanceof Error ? err.message : String(err)}`;
    return result();
  }
  let conn: DumpConnection;
  try {
    conn = await (deps.connect ?? connectForImport)(opts.target);
  } catch (err) {
    fatal = `cannot connect to ${target}: ${describeSqlError(err).message}`;
    return result();
  }
  const progress: ImportProgress = startProgress(state, deps.progressStream ?? process.stderr, opts.progress, now);

  const fail = (f: StatementFailure): void => {
    state.errors++;
    if (failures.length < MAX_KEPT_FAILURES) failures.push(f);
    failureCounts.set(countKey(f), (failureCounts.get(countKey(f)) ?? 0) + 1);
    if (!opts.continueOnError) {
      stopped = true;
      throw new Stop();
    }
    if (state.errors <= MAX_LOGGED_FAILURES) progress.log(`error: ${failureLine(f)}`);
    else if (state.errors === MAX_LOGGED_FAILURES + 1) progress.log('error: further errors are counted but not printed');
  };

  const execute = async (stmt: SplitStatement): Promise<void> => {
    state.statements++;
    if (stmt.problem !== undefined) fail(failureOf(stmt, { message: stmt.problem }));
    else {
      try {
        rowsAffected += await conn.run(stmt.sql);
      } catch (err) {
        const info = describeSqlError(err);
        if (info.fatal) {
          fatal = `lost the connection at statement ${stmt.index} (line ${stmt.line}): ${info.message}`;
          throw new Stop();
        }
        fail(failureOf(stmt, info));
      }
    }
    state.bytes = stmt.end;
    progress.update();
  };

  const splitter = new StatementSplitter(deps.maxStatementBytes);
  try {
    for await (const chunk of (deps.readFile ?? readChunks)(opts.file)) {
      for (const stmt of splitter.push(chunk)) await execute(stmt);
    }
    for (const stmt of splitter.end()) await execute(stmt);
    state.bytes = state.total;
  } catch (err) {
    if (err instanceof SplitError) {
      state.errors++;
      stopped = true;
      failures.push({ index: state.statements + 1, line: err.line, message: err.message, excerpt: '' });
      failureCounts.set('not sent', (failureCounts.get('not sent') ?? 0) + 1);
    } else if (!(err instanceof Stop)) {
      fatal = `cannot read ${opts.file}: ${err instanceof Error ? err.message : String(err)}`;
    }
  } finally {
    progress.stop();
    await conn.close();
  }
  return result();
}

async function fileSize(path: string): Promise<number> {
  const s = await stat(path);
  if (!s.isFile()) throw new Error('not a regular file');
  return s.size;
}

function readChunks(path: string): AsyncIterable<Buffer> {
  return createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
}
