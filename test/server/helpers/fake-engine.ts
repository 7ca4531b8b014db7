/**
 * A small in-memory Engine for server tests: fixed typed result sets, BEGIN/COMMIT tracking
 * for IN_TRANS, SqlErrors, a query that runs until the test releases it (`WAIT`, hold()), and a
 * record of everything the sessions received.
 */
import { createHash } from 'node:crypto';
import { SqlError } from '../../../src/errors/index.js';
import type {
  Engine,
  ExecResult,
  PreparedStatement,
  ResultColumn,
  ServerStats,
  Session,
  SessionOptions,
  UserAuth,
} from '../../../src/sql/session/types.js';
import { DateTime, Decimal, Duration, makeType, type ColumnType, type Value } from '../../../src/types/index.js';

export const PASSWORDS: Record<string, string> = { root: '', alice: 's3cret-pw', bob: 'other' };
export const DATABASES = new Set(['test', 'app']);

export function col(name: string, type: ColumnType, extra: Partial<ResultColumn> = {}): ResultColumn {
  return {
    name, orgName: name, table: 't', orgTable: 't', schema: 'test', type,
    notNull: false, primaryKey: false, uniqueKey: false, multipleKey: false, autoIncrement: false, ...extra,
  };
}

/** `SELECT typed`: one row of every interesting type, plus a row of NULLs. */
export const TYPED_COLUMNS: readonly ResultColumn[] = [
  col('id', makeType('bigint'), { notNull: true, primaryKey: true, autoIncrement: true }),
  col('big', makeType('bigint', { unsigned: true })),
  col('price', makeType('decimal', { length: 10, scale: 2 })),
  col('ratio', makeType('double')),
  col('f', makeType('float')),
  col('name', makeType('varchar', { length: 20 })),
  col('created', makeType('datetime', { scale: 3 })),
  col('day', makeType('date')),
  col('dur', makeType('time')),
  col('data', makeType('blob')),
  col('small', makeType('tinyint')),
  col('n', makeType('int')),
];
export const TYPED_ROWS: ReadonlyArray<readonly Value[]> = [
  [
    1n, 18446744073709551615n, new Decimal('12.5'), 0.1, 0.1, 'héllo',
    new DateTime('datetime', 2024, 1, 2, 3, 4, 5, 678000, 3), new DateTime('date', 2024, 2, 29),
    new Duration(-(((25n * 60n + 1n) * 60n + 2n) * 1_000_000n)), new Uint8Array([0, 1, 255]), -5n, 7,
  ],
  [2n, null, null, null, null, null, null, null, null, null, null, null],
];

export interface Received {
  readonly queries: string[];
  readonly executes: Array<{ sql: string; params: readonly Value[] }>;
  sessionsOpened: number;
  readonly closes: Map<number, number>;
  readonly options: SessionOptions[];
  resets: number;
}

function sha(alg: 'sha1' | 'sha256', data: Buffer): Buffer {
  return createHash(alg).update(data).digest();
}

export class FakeEngine implements Engine {
  readonly serverVersion = '8.0.11-ShaleDB-test';
  readonly received: Received = { queries: [], executes: [], sessionsOpened: 0, closes: new Map(), options: [], resets: 0 };
  private nextSession = 0;
  private gate: { readonly promise: Promise<void>; readonly open: () => void } | undefined;

  /** From now on the query `WAIT` runs until release(). */
  hold(): void {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    this.gate = { promise, open };
  }

  release(): void {
    this.gate?.open();
    this.gate = undefined;
  }

  /** What a `WAIT` query waits for. */
  held(): Promise<void> {
    return this.gate?.promise ?? Promise.resolve();
  }

  async lookupUser(user: string): Promise<UserAuth | null> {
    const pw = PASSWORDS[user];
    if (pw === undefined) return null;
    if (pw === '') return { nativeHash: new Uint8Array(0), sha2Hash: new Uint8Array(0) };
    const p = Buffer.from(pw, 'utf8');
    return { nativeHash: sha('sha1', sha('sha1', p)), sha2Hash: sha('sha256', sha('sha256', p)) };
  }

  async openSession(opts: SessionOptions): Promise<Session> {
    if (opts.database !== undefined && !DATABASES.has(opts.database)) throw SqlError.of('ER_BAD_DB_ERROR', opts.database);
    this.received.sessionsOpened++;
    this.received.options.push(opts);
    return new FakeSession(this, ++this.nextSession, opts);
  }

  stats(): ServerStats {
    return { uptimeSeconds: 10, threads: 1, questions: 25, slowQueries: 0, openTables: 3 };
  }

  maxConnections(): number {
    return 151;
  }
}

const ok = (affectedRows = 0n, insertId = 0n, info = ''): ExecResult => ({ kind: 'ok', affectedRows, insertId, info, warnings: 0 });

class FakeSession implements Session {
  private inTxn = false;
  private db: string | null;

  constructor(
    private readonly engine: FakeEngine,
    readonly sessionId: number,
    opts: SessionOptions,
  ) {
    this.db = opts.database ?? null;
  }

  get connectionId(): number {
    return this.sessionId;
  }
  inTransaction(): boolean {
    return this.inTxn;
  }
  autocommit(): boolean {
    return true;
  }
  currentDatabase(): string | null {
    return this.db;
  }
  async useDatabase(db: string): Promise<void> {
    if (!DATABASES.has(db)) throw SqlError.of('ER_BAD_DB_ERROR', db);
    this.db = db;
  }
  splitStatements(sql: string): string[] {
    return sql.split(';').map((s) => s.trim()).filter((s) => s !== '');
  }

  /** The fake reads no statement from bytes: the server decodes the text and calls query(). */
  queryBytes(): undefined {
    return undefined;
  }

  async query(sql: string): Promise<ExecResult> {
    this.engine.received.queries.push(sql);
    const up = sql.toUpperCase();
    if (up === 'BEGIN' || up === 'START TRANSACTION') {
      this.inTxn = true;
      return ok();
    }
    if (up === 'COMMIT' || up === 'ROLLBACK') {
      this.inTxn = false;
      return ok();
    }
    if (up === 'SELECT TYPED') return { kind: 'rows', columns: TYPED_COLUMNS, rows: TYPED_ROWS, warnings: 0 };
    if (up === 'SELECT 1') return { kind: 'rows', columns: [col('1', makeType('bigint', { length: 1 }))], rows: [[1n]], warnings: 0 };
    if (up.startsWith('SELECT MANY')) {
      const n = Number(up.slice('SELECT MANY'.length).trim());
      const rows = Array.from({ length: n }, (_, i) => [BigInt(i), 'x'.repeat(100)]);
      return { kind: 'rows', columns: [col('i', makeType('bigint')), col('s', makeType('varchar', { length: 100 }))], rows, warnings: 0 };
    }
    if (up.startsWith('INSERT')) return ok(3n, 1n << 60n, 'Records: 3  Duplicates: 0  Warnings: 0');
    if (up.startsWith('SELECT * FROM MISSING')) throw SqlError.of('ER_BAD_TABLE_ERROR', 'test.missing');
    if (up === 'CRASH') throw new Error('boom');
    if (up === 'WAIT') {
      await this.engine.held();
      return ok();
    }
    if (up === 'DB') return { kind: 'rows', columns: [col('db', makeType('varchar', { length: 64 }))], rows: [[this.db]], warnings: 0 };
    return ok();
  }

  async prepare(sql: string): Promise<PreparedStatement> {
    if (sql.toUpperCase().startsWith('UNPREPARABLE')) throw SqlError.of('ER_UNSUPPORTED_PS');
    const paramCount = (sql.match(/\?/g) ?? []).length;
    const typed = sql.toUpperCase() === 'SELECT TYPED';
    const echo = sql.toUpperCase().startsWith('SELECT') && !typed;
    const columns = typed ? TYPED_COLUMNS : echo ? [col('params', makeType('bigint'))] : [];
    const received = this.engine.received;
    let closed = false;
    return {
      paramCount,
      columns,
      execute: async (params): Promise<ExecResult> => {
        if (closed) throw new Error('executed after close');
        received.executes.push({ sql, params: [...params] });
        if (typed) return { kind: 'rows', columns, rows: TYPED_ROWS, warnings: 0 };
        if (echo) return { kind: 'rows', columns, rows: [[BigInt(params.length)]], warnings: 0 };
        return this.query(sql);
      },
      close: () => {
        closed = true;
      },
    };
  }

  async fieldList(table: string): Promise<ResultColumn[]> {
    if (table !== 't') throw SqlError.of('ER_BAD_TABLE_ERROR', `test.${table}`);
    return [
      { ...col('id', makeType('int'), { notNull: true, primaryKey: true }), defaultText: null },
      { ...col('name', makeType('varchar', { length: 10 })), defaultText: 'abc' },
    ];
  }

  async reset(): Promise<void> {
    this.inTxn = false;
    this.engine.received.resets++;
  }

  async close(): Promise<void> {
    const closes = this.engine.received.closes;
    closes.set(this.sessionId, (closes.get(this.sessionId) ?? 0) + 1);
  }

  waitTimeout(): number {
    return 28800;
  }
}
