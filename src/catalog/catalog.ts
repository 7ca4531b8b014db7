/**
 * The catalog: database/table definitions in the KV (meta-keys.ts), a per-process cache of
 * immutable Schema snapshots keyed by the global schema version, the DDL statements and the
 * AUTO_INCREMENT / row id allocator.
 *
 * Every DDL runs in TxnStore.update() transaction(s) that rewrite the changed definitions and
 * bump the schema version together. All DDL transactions write the version key, so concurrent
 * DDLs (in this or other processes) conflict and retry instead of interleaving; DDLs of this
 * process are additionally queued one at a time. Writers lockKeys(tableDefKey(t)), so every DDL on
 * t after their snapshot makes their commit fail with 1213.
 */
import type { Txn, TxnStore } from '../txn/types.js';
import { AutoIdAllocator, DEFAULT_AUTO_ID_STEP } from './auto-id.js';
import type { BackfillProgress } from './backfill.js';
import type { AlterAction, AlterHooks } from './alter-specs.js';
import * as alters from './ddl-alter.js';
import * as databases from './ddl-database.js';
import * as indexes from './ddl-index.js';
import * as renames from './ddl-rename.js';
import * as tables from './ddl-table.js';
import * as views from './view.js';
import { SCHEMA_VERSION_KEY, tableKey } from './meta-keys.js';
import { bootstrapMeta, counterFromBytes, loadDefinitions, readSchemaVersion, schemaVersionBytesNow } from './meta-store.js';
import { bytesEqual } from '../util/index.js';
import { buildSchema, type Schema } from './schema.js';
import { SerialQueue } from './serial-queue.js';
import type { CreateDatabaseOptions, IndexSpec, TableSpec } from './specs.js';
import type { TableInfo } from './types.js';

export interface CatalogOptions {
  /** Ids reserved per AUTO_INCREMENT counter transaction (default 1000). */
  readonly autoIdStep?: number;
}

/** How many past schema versions stay cached (old snapshots still running). */
const CACHED_VERSIONS = 4;

export class Catalog {
  private readonly cache = new Map<bigint, Schema>();
  private readonly autoIds: AutoIdAllocator;
  private readonly ddlQueue = new SerialQueue<'ddl'>();
  /** The schema version last read with no writes pending, and the snapshot timestamp it was read at. */
  private lastVersion: { readonly startTs: bigint; readonly version: bigint } | undefined;
  /** The version key's bytes as last read synchronously, and their value (parsed once, not per statement). */
  private lastBytes: { readonly bytes: Uint8Array; readonly version: bigint } | undefined;

  private constructor(
    readonly store: TxnStore,
    opts: CatalogOptions,
  ) {
    this.autoIds = new AutoIdAllocator(store, opts.autoIdStep ?? DEFAULT_AUTO_ID_STEP);
  }

  /** Opens the catalog, writing the initial meta keys on a fresh store. */
  static async open(store: TxnStore, opts: CatalogOptions = {}): Promise<Catalog> {
    const present = await store.view(async (txn) => (await txn.get(SCHEMA_VERSION_KEY)) !== undefined);
    if (!present) await store.update(bootstrapMeta);
    return new Catalog(store, opts);
  }

  /**
   * The schema as of `txn`'s snapshot: the version key (read once per snapshot timestamp, see
   * versionOf), then a cached Schema if unchanged.
   */
  /**
   * schemaFor() without a promise where it needs none: the cached schema of the version last read
   * at `txn`'s timestamp (see versionOf), or of the version the store reads out at once
   * (Txn.getNow: the embedded store; every write statement has a new timestamp); undefined
   * otherwise (then await schemaFor).
   */
  cachedSchemaFor(txn: Txn): Schema | undefined {
    if (txn.writeCount > 0) return undefined;
    const last = this.lastVersion;
    if (last !== undefined && last.startTs === txn.startTs) return this.cache.get(last.version);
    const version = this.versionNow(txn);
    if (version === undefined) return undefined;
    this.lastVersion = { startTs: txn.startTs, version };
    return this.cache.get(version);
  }

  /** The version `txn` sees if the store answers without a promise (a txn with no writes). */
  private versionNow(txn: Txn): bigint | undefined {
    const bytes = schemaVersionBytesNow(txn);
    if (bytes === null) return undefined;
    if (bytes === undefined) return 0n;
    const last = this.lastBytes;
    if (last !== undefined && bytesEqual(last.bytes, bytes)) return last.version;
    const version = counterFromBytes(bytes);
    this.lastBytes = { bytes, version };
    return version;
  }

  async schemaFor(txn: Txn): Promise<Schema> {
    const version = await this.versionOf(txn);
    const cached = this.cache.get(version);
    if (cached !== undefined) return cached;
    const { dbs, tables: tbls } = await loadDefinitions(txn);
    const schema = buildSchema(version, dbs, tbls);
    this.remember(schema);
    return schema;
  }

  /**
   * The schema version `txn` sees. A snapshot shows every commit up to its startTs and none
   * after (kv.ts), so snapshots with equal startTs see the same version: the last one read is
   * reused while the timestamp stays the same (read-mostly loads keep one timestamp for many
   * statements). A transaction that wrote something may have written the version key itself,
   * so it always reads it.
   */
  private versionOf(txn: Txn): Promise<bigint> | bigint {
    const last = this.lastVersion;
    if (txn.writeCount > 0) return readSchemaVersion(txn);
    if (last !== undefined && last.startTs === txn.startTs) return last.version;
    return readSchemaVersion(txn).then((version) => {
      this.lastVersion = { startTs: txn.startTs, version };
      return version;
    });
  }

  latestSchema(): Promise<Schema> {
    return this.store.view((txn) => this.schemaFor(txn));
  }

  createDatabase(name: string, opts: CreateDatabaseOptions): Promise<void> {
    return this.ddl(() => databases.createDatabase(this.store, name, opts));
  }

  dropDatabase(name: string, ifExists: boolean): Promise<void> {
    return this.ddl(async () => {
      const dropped = await databases.dropDatabase(this.store, name, ifExists);
      for (const t of dropped) this.autoIds.forget(t.id);
    });
  }

  /** The new table, or null if it exists and `ifNotExists` (the caller adds note 1050). */
  createTable(db: string, spec: TableSpec, ifNotExists: boolean, foreignKeyChecks = true): Promise<TableInfo | null> {
    return this.ddl(() => tables.createTable(this.store, db, spec, ifNotExists, foreignKeyChecks));
  }

  /** CREATE TABLE name LIKE src; null if it exists and `ifNotExists`. */
  createTableLike(db: string, name: string, src: renames.TableRef, ifNotExists: boolean): Promise<TableInfo | null> {
    return this.ddl(() => renames.createTableLike(this.store, db, name, src, ifNotExists));
  }

  /** RENAME TABLE a TO b, c TO d: one transaction. */
  renameTables(pairs: ReadonlyArray<{ from: renames.TableRef; to: renames.TableRef }>): Promise<void> {
    return this.ddl(async () => {
      await renames.renameTables(this.store, pairs);
    });
  }

  /** ALTER TABLE: the actions applied as one schema change (see ddl-alter.ts). */
  alterTable(db: string, name: string, actions: readonly AlterAction[], hooks: AlterHooks, progress?: BackfillProgress): Promise<TableInfo> {
    return this.ddl(async () => {
      const out = await alters.alterTable(this.store, db, name, actions, hooks, this.autoIds, progress);
      if (out.autoIncrement !== undefined && out.autoIncrement > 1n) await this.autoIds.rebase(out.table.id, out.autoIncrement - 1n);
      return out.table;
    });
  }

  /** `fkChecks`: refuse (3730) to drop a table another table's foreign key references, unless that one is in `alsoDropped` ("db.name"). */
  dropTable(db: string, name: string, ifExists: boolean, fkChecks?: { readonly alsoDropped: ReadonlySet<string> }): Promise<void> {
    return this.ddl(async () => {
      const dropped = await tables.dropTable(this.store, db, name, ifExists, fkChecks);
      if (dropped !== undefined) this.autoIds.forget(dropped.id);
    });
  }

  /** CREATE [OR REPLACE] VIEW (view.ts). */
  createView(db: string, spec: views.ViewSpec, orReplace: boolean): Promise<void> {
    return this.ddl(() => views.createView(this.store, db, spec, orReplace));
  }

  /** DROP VIEW [IF EXISTS] (view.ts). */
  dropViews(names: ReadonlyArray<{ db: string; name: string }>, ifExists: boolean): Promise<void> {
    return this.ddl(() => views.dropViews(this.store, names, ifExists));
  }

  /** Adds the index and backfills it from the existing rows (1062 on duplicates for UNIQUE); `progress` may abort it by throwing. */
  createIndex(db: string, table: string, spec: IndexSpec & { name: string }, ifNotExists: boolean, progress?: BackfillProgress): Promise<void> {
    return this.ddl(() => indexes.createIndex(this.store, db, table, spec, ifNotExists, progress));
  }

  dropIndex(db: string, table: string, name: string, ifExists: boolean): Promise<void> {
    return this.ddl(() => indexes.dropIndex(this.store, db, table, name, ifExists));
  }

  truncateTable(db: string, name: string): Promise<void> {
    return this.ddl(async () => {
      const [old] = await tables.truncateTable(this.store, db, name);
      this.autoIds.forget(old.id);
    });
  }

  /** The first of `n` consecutive ids (AUTO_INCREMENT values and hidden row ids); see auto-id.ts. */
  allocAutoId(table: TableInfo, n: number): Promise<bigint> {
    return this.autoIds.alloc(table.id, n);
  }

  /**
   * A generated id met a row already stored under it (a block of ids this process reserved before
   * another process stored rows in its range by hand): drop the rest of the block, so the next
   * ids come from a fresh block above every id reserved or rebased since.
   */
  abandonAutoIdBlock(table: TableInfo): void {
    this.autoIds.forget(table.id);
  }

  /** An explicit value was stored in the AUTO_INCREMENT column: later ids are > used. */
  rebaseAutoId(table: TableInfo, used: bigint): Promise<void> {
    return this.autoIds.rebase(table.id, used);
  }

  /** The meta key of the table's definition; every DDL on the table rewrites (or deletes) it. */
  tableDefKey(table: TableInfo): Uint8Array {
    return tableKey(table.dbName, table.name);
  }

  private ddl<T>(task: () => Promise<T>): Promise<T> {
    return this.ddlQueue.run('ddl', task);
  }

  private remember(schema: Schema): void {
    this.cache.set(schema.version, schema);
    if (this.cache.size <= CACHED_VERSIONS) return;
    const oldest = [...this.cache.keys()].reduce((a, b) => (a < b ? a : b));
    this.cache.delete(oldest);
  }
}
