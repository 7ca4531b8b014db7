/**
 * FOREIGN KEY enforcement for the DML write paths (skipped while @@foreign_key_checks = 0).
 * Child side: a new or changed row whose key columns are all non-NULL must find its parent
 * row (1452); the parent key found is locked, so a parent deleted by a transaction that
 * commits first makes this one fail with 1213. Parent side: before a row is deleted, or its
 * referenced columns change, the child rows are found through their FK index and the rule
 * applied: RESTRICT / NO ACTION (1451), CASCADE, SET NULL (recursively, 15 levels at most).
 */
import { rowHandle, type ForeignKeyInfo, type Schema, type TableInfo } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { Txn } from '../../txn/index.js';
import type { Value } from '../../types/index.js';
import { truthy, type EvalContext } from '../expr/index.js';
import type { ExecContext } from './context.js';
import { columnsByName, convertKey, findChildHandles, findParentKey, leadingIndex } from './foreign-key-lookup.js';
import { sameValue } from './column-values.js';
import { TableWriter } from './table-writer.js';

const MAX_DEPTH = 15;
const CASCADE_BATCH = 100000;

interface Reference {
  readonly child: TableInfo;
  readonly fk: ForeignKeyInfo;
}

/** The foreign key rules touching one table, as child and as parent. */
export class ForeignKeyGuard {
  private constructor(
    readonly table: TableInfo,
    private readonly schema: Schema,
    private readonly asChild: readonly ForeignKeyInfo[],
    private readonly asParent: readonly Reference[],
  ) {}

  /** Null when the table neither has nor is referenced by a foreign key. */
  static of(table: TableInfo, schema: Schema): ForeignKeyGuard | null {
    const asParent: Reference[] = [];
    for (const db of schema.databases()) {
      for (const t of schema.tables(db.name)) {
        for (const fk of t.foreignKeys) if (fk.refDb === table.dbName && fk.refTable === table.name) asParent.push({ child: t, fk });
      }
    }
    const resolvable = (t: TableInfo, names: readonly string[]): boolean => names.every((n) => hasColumn(t, n));
    const asChild = table.foreignKeys.filter((fk) => resolvable(table, fk.columns));
    const refs = asParent.filter((r) => resolvable(r.child, r.fk.columns) && resolvable(table, r.fk.refColumns));
    if (asChild.length === 0 && refs.length === 0) return null;
    return new ForeignKeyGuard(table, schema, asChild, refs);
  }

  /** A row about to be inserted (or `old` about to become `row`): its parents must exist. */
  async checkInsert(ctx: ExecContext, row: readonly Value[], old?: readonly Value[]): Promise<void> {
    if (!checksOn(ctx)) return;
    for (const fk of this.asChild) {
      const cols = columnsByName(this.table, fk.columns);
      const values = cols.map((c) => row[c.offset] ?? null);
      if (values.includes(null)) continue;
      if (old !== undefined && cols.every((c) => sameValue(old[c.offset] ?? null, row[c.offset] ?? null))) continue;
      if (!(await this.parentExists(ctx, fk, values))) throw childError(this.table, fk);
    }
  }

  /** A row about to be deleted: apply each referencing foreign key's ON DELETE rule. */
  async beforeDelete(ctx: ExecContext, row: readonly Value[], depth = 0): Promise<void> {
    if (this.asParent.length === 0 || !checksOn(ctx)) return;
    for (const ref of this.asParent) await this.applyRule(ctx, ref, row, null, ref.fk.onDelete, depth);
  }

  /** A row about to change: apply ON UPDATE rules of foreign keys whose referenced columns change. */
  async beforeUpdate(ctx: ExecContext, old: readonly Value[], row: readonly Value[], depth = 0): Promise<void> {
    if (this.asParent.length === 0 || !checksOn(ctx)) return;
    for (const ref of this.asParent) {
      const cols = columnsByName(this.table, ref.fk.refColumns);
      if (cols.every((c) => sameValue(old[c.offset] ?? null, row[c.offset] ?? null))) continue;
      await this.applyRule(ctx, ref, old, row, ref.fk.onUpdate, depth);
    }
  }

  private async parentExists(ctx: ExecContext, fk: ForeignKeyInfo, values: readonly Value[]): Promise<boolean> {
    const parent = fk.refDb === this.table.dbName && fk.refTable === this.table.name ? this.table : this.schema.table(fk.refDb, fk.refTable);
    if (parent === undefined) return false;
    const ix = leadingIndex(parent, fk.refColumns);
    if (ix === undefined) return false;
    const key = convertKey(values, columnsByName(parent, fk.refColumns), ctx);
    if (key === null) return false;
    const found = await findParentKey(ctx.txn, parent, ix, key);
    if (found === undefined) return false;
    ctx.txn.lockKeys([found]);
    return true;
  }

  /** `next` null: the parent row is deleted; else it becomes `next`. */
  private async applyRule(ctx: ExecContext, ref: Reference, old: readonly Value[], next: readonly Value[] | null, rule: string, depth: number): Promise<void> {
    const values = columnsByName(this.table, ref.fk.refColumns).map((c) => old[c.offset] ?? null);
    if (values.includes(null)) return;
    const child = ref.child.id === this.table.id ? this.table : ref.child;
    const ix = leadingIndex(child, ref.fk.columns);
    const key = ix === undefined ? null : convertKey(values, columnsByName(child, ref.fk.columns), ctx);
    if (ix === undefined || key === null) return;
    const action = rule.toUpperCase();
    const cascade = action === 'CASCADE' || action === 'SET NULL';
    const handles = await findChildHandles(ctx.txn, child, ix, key, cascade ? CASCADE_BATCH : 1);
    if (handles.length === 0) return;
    if (!cascade) throw parentError(child, ref.fk);
    if (depth >= MAX_DEPTH) throw SqlError.of('ER_NOT_SUPPORTED_YET', `foreign key cascades deeper than ${MAX_DEPTH} levels`);
    const writer = new TableWriter(child);
    // Like every writer: a DDL on the child table after this transaction began makes it fail.
    writer.lockTable(ctx);
    const guard = ForeignKeyGuard.of(child, this.schema);
    const childCols = columnsByName(child, ref.fk.columns);
    const parentCols = columnsByName(this.table, ref.fk.refColumns);
    for (const handle of handles) {
      const row = await writer.read(ctx.txn, handle);
      if (row === null) continue;
      if (next === null && action === 'CASCADE') {
        await guard?.beforeDelete(ctx, row, depth + 1);
        writer.delete(ctx.txn, row, handle);
        continue;
      }
      const changed = row.slice();
      childCols.forEach((c, i) => (changed[c.offset] = action === 'SET NULL' || next === null ? null : (next[(parentCols[i] as typeof c).offset] ?? null)));
      if (action === 'SET NULL' && childCols.some((c) => c.notNull)) throw parentError(child, ref.fk);
      await guard?.beforeUpdate(ctx, row, changed, depth + 1);
      const hidden = child.handleKind === 'int' && !child.pkIsHandle;
      await writer.update(ctx.txn, row, handle, changed, hidden ? handle : rowHandle(child, changed));
    }
  }
}

function hasColumn(t: TableInfo, name: string): boolean {
  return t.columns.some((c) => c.name.toLowerCase() === name.toLowerCase());
}

function checksOn(ctx: ExecContext): boolean {
  return truthy(ctx.getVariable('session', 'foreign_key_checks')) !== false;
}

function constraintText(child: TableInfo, fk: ForeignKeyInfo): string {
  const q = (s: string): string => '`' + s.replace(/`/g, '``') + '`';
  const list = (names: readonly string[]): string => names.map(q).join(', ');
  const parent = fk.refDb !== child.dbName ? `${q(fk.refDb)}.${q(fk.refTable)}` : q(fk.refTable);
  let s = `${q(child.dbName)}.${q(child.name)}, CONSTRAINT ${q(fk.name)} FOREIGN KEY (${list(fk.columns)}) REFERENCES ${parent} (${list(fk.refColumns)})`;
  const onDelete = fk.onDelete.toUpperCase();
  const onUpdate = fk.onUpdate.toUpperCase();
  if (onDelete !== 'NO ACTION' && onDelete !== 'RESTRICT' && onDelete !== '') s += ` ON DELETE ${onDelete}`;
  if (onUpdate !== 'NO ACTION' && onUpdate !== 'RESTRICT' && onUpdate !== '') s += ` ON UPDATE ${onUpdate}`;
  return s;
}

function childError(child: TableInfo, fk: ForeignKeyInfo): SqlError {
  return SqlError.of('ER_NO_REFERENCED_ROW_2', constraintText(child, fk));
}

function parentError(child: TableInfo, fk: ForeignKeyInfo): SqlError {
  return SqlError.of('ER_ROW_IS_REFERENCED_2', constraintText(child, fk));
}

/**
 * ALTER TABLE ... ADD FOREIGN KEY on a table with rows: each existing row must find its
 * parent (1452), read through the ALTER's own transaction.
 */
export function foreignKeyRowValidator(
  txn: Txn, table: TableInfo, fks: readonly ForeignKeyInfo[], schema: Schema, ctx: EvalContext,
): (row: readonly Value[]) => Promise<void> {
  return async (row) => {
    for (const fk of fks) {
      const values = columnsByName(table, fk.columns).map((c) => row[c.offset] ?? null);
      if (values.includes(null)) continue;
      const self = fk.refDb === table.dbName && fk.refTable === table.name;
      const parent = self ? table : schema.table(fk.refDb, fk.refTable);
      const ix = parent === undefined ? undefined : leadingIndex(parent, fk.refColumns);
      const key = parent === undefined ? null : convertKey(values, columnsByName(parent, fk.refColumns), ctx);
      if (parent === undefined || ix === undefined || key === null || (await findParentKey(txn, parent, ix, key)) === undefined) {
        throw childError(table, fk);
      }
    }
  };
}
