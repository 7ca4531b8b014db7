/** Test harness: a real Catalog over the in-memory TxnStore; runs SQL through compileStatement. */
import { Catalog, type Schema } from '../../../src/catalog/index.js';
import type { Txn } from '../../../src/txn/types.js';
import { DateTime, type Value } from '../../../src/types/index.js';
import { parseStatement, type VarScope } from '../../../src/sql/parse/index.js';
import { tableSpecFromAst, indexSpecFromAst } from '../../../src/sql/session/ddl-from-ast.js';
import type { ExecResult, OkResult, RowsResult } from '../../../src/sql/session/types.js';
import { compileStatement, uncancellable, type ExecContext } from '../../../src/sql/exec/index.js';
import { MemTxnStore } from './mem-txn.js';
import { isSqlError } from '../../../src/errors/index.js';

export class TestContext implements ExecContext {
  readonly warnings: Array<{ code: number; message: string }> = [];
  readonly cancel = uncancellable();
  constructor(
    readonly params: readonly Value[],
    readonly txn: Txn,
    readonly schema: Schema,
    readonly catalog: Catalog,
    readonly foundRowsFlag: boolean,
    private readonly db: Harness,
    readonly strict = true,
  ) {}
  getVariable(_scope: VarScope, _name: string): Value {
    return null;
  }
  lastInsertId(): bigint {
    return this.db.lastId;
  }
  rowCount(): bigint {
    return 0n;
  }
  foundRows(): bigint {
    return this.db.found;
  }
  currentDatabase(): string | null {
    return 'test';
  }
  currentUser(): string {
    return 'root@127.0.0.1';
  }
  connectionId(): number {
    return 1;
  }
  now(): DateTime {
    return new DateTime('datetime', 2024, 1, 2, 3, 4, 5, 0, 6);
  }
  warn(code: number, message: string): void {
    this.warnings.push({ code, message });
  }
  setLastInsertId(id: bigint): void {
    this.db.lastId = id;
  }
  setFoundRows(n: bigint): void {
    this.db.found = n;
  }
  virtualRows(): Promise<Value[][]> {
    return Promise.resolve([]);
  }
}

export class Harness {
  lastId = 0n;
  found = 0n;
  foundRowsFlag = false;
  strict = true;
  lastCtx: TestContext | null = null;
  private open: Txn | null = null;

  private constructor(
    readonly store: MemTxnStore,
    readonly catalog: Catalog,
  ) {}

  static async create(): Promise<Harness> {
    const store = new MemTxnStore();
    const catalog = await Catalog.open(store);
    await catalog.createDatabase('test', { ifNotExists: false });
    return new Harness(store, catalog);
  }

  async ddl(sql: string): Promise<void> {
    const { stmt } = parseStatement(sql);
    const ctx = new TestContext([], await this.store.begin(), await this.catalog.latestSchema(), this.catalog, false, this);
    if (stmt.kind === 'createTable') await this.catalog.createTable('test', tableSpecFromAst(stmt, ctx), false);
    else if (stmt.kind === 'createIndex') await this.catalog.createIndex('test', stmt.table.name, { ...indexSpecFromAst(stmt.index), name: stmt.index.name }, false);
    else throw new Error(`not DDL: ${sql}`);
  }

  /** Runs one statement in its own transaction (or the open one, see begin()). */
  async exec(sql: string, params: readonly Value[] = []): Promise<ExecResult> {
    const txn = this.open ?? (await this.store.begin());
    const schema = await this.catalog.schemaFor(txn);
    const compiled = compileStatement(parseStatement(sql).stmt, schema, 'test');
    const ctx = new TestContext(params, txn, schema, this.catalog, this.foundRowsFlag, this, this.strict);
    this.lastCtx = ctx;
    const cp = txn.checkpoint();
    try {
      const r = await compiled.run(ctx);
      if (this.open === null) await txn.commit();
      return r;
    } catch (e) {
      txn.rollbackTo(cp);
      if (this.open === null) txn.rollback();
      throw e;
    }
  }

  async begin(): Promise<void> {
    this.open = await this.store.begin();
  }

  async commit(): Promise<void> {
    await this.open?.commit();
    this.open = null;
  }

  async rows(sql: string, params: readonly Value[] = []): Promise<Value[][]> {
    const r = await this.exec(sql, params);
    if (r.kind !== 'rows') throw new Error('expected rows');
    return r.rows.map((row) => [...row]);
  }

  async ok(sql: string, params: readonly Value[] = []): Promise<OkResult> {
    const r = await this.exec(sql, params);
    if (r.kind !== 'ok') throw new Error('expected ok');
    return r;
  }

  async result(sql: string, params: readonly Value[] = []): Promise<RowsResult> {
    const r = await this.exec(sql, params);
    if (r.kind !== 'rows') throw new Error('expected rows');
    return r;
  }

  async explain(sql: string): Promise<string[]> {
    const rows = await this.rows(`EXPLAIN ${sql}`);
    return rows.map((r) => r.join(' | '));
  }
}

export const SBTEST = `CREATE TABLE sbtest1(
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) /*! ENGINE = innodb */`;

/** `errno message` of the SqlError `p` rejects with, or 'no error'. */
export async function errno(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isSqlError(e)) return `${e.errno} ${e.message}`;
    throw e;
  }
  return 'no error';
}
