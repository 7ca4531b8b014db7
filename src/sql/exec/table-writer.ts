/**
 * Row + index mutation through the catalog's record functions: insert, delete and update of
 * one row with every writable index (public and writeOnly) kept in step, and the uniqueness
 * checks (PRIMARY and distinct unique entries, against snapshot + write buffer).
 */
import {
  decodeRecord, encodeRecordValue, indexEntry, indexValues, primaryIndex, recordKeyOf, sameHandle, writableIndexes,
  type Catalog, type IndexInfo, type TableInfo,
} from '../../catalog/index.js';
import { decodeIndexValue, decodeRecordKey, recordPrefix, type Handle } from '../../codec/index.js';
import type { Txn } from '../../txn/index.js';
import type { Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { bytesEqual } from '../../util/index.js';
import { valueToString } from '../expr/index.js';
import type { ExecContext } from './context.js';

export interface Conflict {
  /** The existing row's handle. */
  readonly handle: Handle;
  readonly error: SqlError;
}

/**
 * One statement's reads of the keys its rows could collide on: fetched up front with ONE
 * txn.batchGet, then overlaid with the statement's own writes, so each later lookup answers
 * exactly what txn.get would (valid while this statement's writes all go through `wrote`).
 */
export class StatementReads {
  private readonly known = new Map<string, Uint8Array | undefined>();

  constructor(private readonly txn: Txn) {}

  async prefetch(keys: readonly Uint8Array[]): Promise<void> {
    const values = await this.txn.batchGet(keys);
    keys.forEach((k, i) => this.known.set(keyIdOf(k), values[i]));
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const id = keyIdOf(key);
    return this.known.has(id) ? Promise.resolve(this.known.get(id)) : this.txn.get(key);
  }

  wrote(key: Uint8Array, value: Uint8Array): void {
    this.known.set(keyIdOf(key), value);
  }
}

function keyIdOf(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
}

const collisions = new WeakSet<SqlError>();

/** True for the 1062 of a generated AUTO_INCREMENT id found taken at commit: the statement may run again (new ids). */
export function isGeneratedIdCollision(err: unknown): boolean {
  return err instanceof SqlError && collisions.has(err);
}

export class TableWriter {
  readonly indexes: readonly IndexInfo[];
  private readonly uniques: readonly IndexInfo[];
  private readonly pk: IndexInfo | undefined;
  /** The table definition's meta key (lockTable), built on first use. */
  private defKey: Uint8Array | undefined;

  constructor(readonly table: TableInfo) {
    this.indexes = writableIndexes(table);
    this.uniques = this.indexes.filter((i) => i.unique);
    this.pk = primaryIndex(table);
  }

  get hasUniqueIndexes(): boolean {
    return this.uniques.length > 0;
  }

  /** Makes a concurrent DDL on the table conflict with this statement's transaction. */
  lockTable(ctx: ExecContext): void {
    this.defKey ??= ctx.catalog.tableDefKey(this.table);
    ctx.txn.lockKeys([this.defKey]);
  }

  /** The first existing row `row` would collide with (PRIMARY if `checkPk`, then unique indexes). */
  async findConflict(txn: Txn, row: readonly Value[], handle: Handle, checkPk: boolean, reads?: StatementReads): Promise<Conflict | null> {
    const get = (key: Uint8Array): Promise<Uint8Array | undefined> => (reads === undefined ? txn.get(key) : reads.get(key));
    if (checkPk && this.pk !== undefined) {
      if ((await get(recordKeyOf(this.table, handle))) !== undefined) return { handle, error: this.dupError(this.pk, row) };
    }
    for (const ix of this.uniques) {
      const e = indexEntry(this.table, ix, row, handle);
      if (!e.distinct) continue;
      const v = await get(e.key);
      if (v === undefined) continue;
      const owner = decodeIndexValue(v);
      if (owner !== null && !sameHandle(owner, handle)) return { handle: owner, error: this.dupError(ix, row) };
    }
    return null;
  }

  /** The keys findConflict(row, handle, checkPk) reads, for StatementReads.prefetch. */
  conflictKeys(row: readonly Value[], handle: Handle, checkPk: boolean, out: Uint8Array[]): void {
    if (checkPk && this.pk !== undefined) out.push(recordKeyOf(this.table, handle));
    for (const ix of this.uniques) {
      const e = indexEntry(this.table, ix, row, handle);
      if (e.distinct) out.push(e.key);
    }
  }

  /** insert()'s reporter of generated ids found taken at commit (one per writer, so a transaction registers it once). */
  private existingRow: ((key: Uint8Array) => SqlError | undefined) | undefined;

  /**
   * The 1062 for a generated id whose row key held a row at commit (undefined for another table's
   * key). The process's block of ids is dropped, and the error is marked for the autocommit retry
   * (isGeneratedIdCollision): the statement then runs again with ids from a fresh block.
   */
  private collisionReporter(catalog: Catalog): (key: Uint8Array) => SqlError | undefined {
    return (key) => {
      const pk = this.pk;
      const prefix = recordPrefix(this.table.id);
      if (pk === undefined || !this.table.pkIsHandle || key.length <= prefix.length || !bytesEqual(key.subarray(0, prefix.length), prefix)) return undefined;
      const { handle } = decodeRecordKey(key, 'int');
      if (handle.kind !== 'int') return undefined;
      const row: Value[] = [];
      row[(pk.columns[0] as { offset: number }).offset] = handle.value;
      catalog.abandonAutoIdBlock(this.table);
      const err = this.dupError(pk, row);
      collisions.add(err);
      return err;
    };
  }

  dupError(ix: IndexInfo, row: readonly Value[]): SqlError {
    const text = indexValues(ix, row).map((v) => (v === null ? 'NULL' : valueToString(v))).join('-');
    return SqlError.of('ER_DUP_ENTRY', text, `${this.table.name}.${ix.primary ? 'PRIMARY' : ix.name}`);
  }

  /**
   * Writes a new row. `generatedBy`: its handle is an AUTO_INCREMENT id this catalog allocated and
   * nobody checked. Ids are unique among allocations, but another process's block of ids, or an
   * UPDATE of the id column, can put a row at it; so the row must not exist when the transaction
   * commits (Txn.putAbsent), else the write fails with 1062 instead of replacing that row.
   */
  insert(txn: Txn, row: readonly Value[], handle: Handle, reads?: StatementReads, generatedBy?: Catalog): void {
    const key = recordKeyOf(this.table, handle);
    const value = encodeRecordValue(this.table, row);
    if (generatedBy !== undefined && this.pk !== undefined) {
      if (!txn.putAbsent(key, value)) throw this.dupError(this.pk, row);
      this.existingRow ??= this.collisionReporter(generatedBy);
      txn.onExistingKey(this.existingRow);
    } else {
      txn.put(key, value);
    }
    reads?.wrote(key, value);
    for (const ix of this.indexes) {
      const e = indexEntry(this.table, ix, row, handle);
      txn.put(e.key, e.value, derivedEntry(ix, e.distinct));
      reads?.wrote(e.key, e.value);
    }
  }

  delete(txn: Txn, row: readonly Value[], handle: Handle): void {
    txn.delete(recordKeyOf(this.table, handle));
    for (const ix of this.indexes) {
      const e = indexEntry(this.table, ix, row, handle);
      txn.delete(e.key, derivedEntry(ix, e.distinct));
    }
  }

  /** Reads the full row stored under `handle`, or null. */
  async read(txn: Txn, handle: Handle): Promise<Value[] | null> {
    const v = await txn.get(recordKeyOf(this.table, handle));
    return v === undefined ? null : decodeRecord(this.table, handle, v);
  }

  /**
   * Replaces `oldRow` (at `oldHandle`) by `newRow` (at `newHandle`): checks the changed unique
   * keys first (throws the 1062 error, nothing written), then writes only what changed.
   */
  async update(txn: Txn, oldRow: readonly Value[], oldHandle: Handle, newRow: readonly Value[], newHandle: Handle): Promise<void> {
    const moved = !sameHandle(oldHandle, newHandle);
    if (moved && this.pk !== undefined && (await txn.get(recordKeyOf(this.table, newHandle))) !== undefined) {
      throw this.dupError(this.pk, newRow);
    }
    const changes: Array<{ oldKey: Uint8Array; oldDerived: boolean; key: Uint8Array; value: Uint8Array; derived: boolean }> = [];
    for (const ix of this.indexes) {
      // Same handle and the very same values in the indexed columns: the entry cannot change.
      if (!moved && ix.columns.every((c) => oldRow[c.offset] === newRow[c.offset])) continue;
      const o = indexEntry(this.table, ix, oldRow, oldHandle);
      const n = indexEntry(this.table, ix, newRow, newHandle);
      if (bytesEqual(o.key, n.key) && bytesEqual(o.value, n.value)) continue;
      if (n.distinct && !bytesEqual(o.key, n.key)) {
        const v = await txn.get(n.key);
        const owner = v === undefined ? null : decodeIndexValue(v);
        if (owner !== null && !sameHandle(owner, oldHandle)) throw this.dupError(ix, newRow);
      }
      changes.push({ oldKey: o.key, oldDerived: derivedEntry(ix, o.distinct), key: n.key, value: n.value, derived: derivedEntry(ix, n.distinct) });
    }
    if (moved) txn.delete(recordKeyOf(this.table, oldHandle));
    txn.put(recordKeyOf(this.table, newHandle), encodeRecordValue(this.table, newRow));
    for (const c of changes) {
      if (!bytesEqual(c.oldKey, c.key)) txn.delete(c.oldKey, c.oldDerived);
      txn.put(c.key, c.value, c.derived);
    }
  }
}

/**
 * Whether an entry of `ix` is a derived write (txn types.ts put): a non-distinct entry names its
 * row's handle and is written only with that row's record key, whose check covers it. Only once
 * the index is public: while it is writeOnly, the backfill relies on conflicts on the entries
 * themselves (backfill.ts), and a writer that saw the index writeOnly cannot commit after it turns
 * public (it checks the table definition).
 */
function derivedEntry(ix: IndexInfo, distinct: boolean): boolean {
  return !distinct && ix.state === 'public';
}
