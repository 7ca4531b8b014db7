/**
 * FOREIGN KEY and CHECK constraint definitions: MySQL's generated names (`t_ibfk_1`,
 * `t_chk_1`), the index InnoDB creates on the child columns when none starts with them, and
 * the checks against the referenced (parent) table (1824 / 1822 / 1239).
 */
import { SqlError } from '../errors/index.js';
import type { IndexSpec } from './specs.js';
import type { CheckInfo, ForeignKeyInfo, TableInfo } from './types.js';

export type ForeignKeySpec = ForeignKeyInfo & { readonly indexName?: string };

/** Names unnamed foreign keys `<table>_ibfk_<n>` (n above every existing one); 1826 on a duplicate name. */
export function nameForeignKeys(table: string, existing: readonly ForeignKeyInfo[], added: readonly ForeignKeySpec[], db: string): ForeignKeySpec[] {
  const prefix = `${table}_ibfk_`;
  let n = maxSuffix(existing.map((f) => f.name), prefix);
  const taken = new Set(existing.map((f) => f.name.toLowerCase()));
  return added.map((fk) => {
    const name = fk.name !== '' ? fk.name : `${prefix}${++n}`;
    if (taken.has(name.toLowerCase())) throw SqlError.of('ER_FK_DUP_NAME', name);
    taken.add(name.toLowerCase());
    if (fk.columns.length !== fk.refColumns.length) throw SqlError.of('ER_WRONG_FK_DEF', name);
    return { ...fk, name, refDb: fk.refDb !== '' ? fk.refDb : db };
  });
}

/** Names unnamed checks `<table>_chk_<n>`; 3822 on a duplicate name. */
export function nameChecks(table: string, existing: readonly CheckInfo[], added: readonly CheckInfo[]): CheckInfo[] {
  const prefix = `${table}_chk_`;
  let n = maxSuffix(existing.map((c) => c.name), prefix);
  const taken = new Set(existing.map((c) => c.name.toLowerCase()));
  return added.map((c) => {
    const name = c.name !== '' ? c.name : `${prefix}${++n}`;
    if (taken.has(name.toLowerCase())) throw SqlError.of('ER_CHECK_CONSTRAINT_DUP_NAME', name);
    taken.add(name.toLowerCase());
    return { ...c, name };
  });
}

function maxSuffix(names: readonly string[], prefix: string): number {
  let n = 0;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const k = Number(name.slice(prefix.length));
    if (Number.isInteger(k) && k > n) n = k;
  }
  return n;
}

/** True if some index starts with exactly these columns (in order). */
export function hasLeadingIndex(indexes: ReadonlyArray<{ readonly columns: ReadonlyArray<{ readonly name: string; readonly length?: number }> }>, columns: readonly string[]): boolean {
  return indexes.some((ix) =>
    ix.columns.length >= columns.length
    && columns.every((c, i) => ix.columns[i]?.name.toLowerCase() === c.toLowerCase() && ix.columns[i]?.length === undefined));
}

/** The index InnoDB adds for a foreign key whose columns start no existing index (named by constraint, index name or column). */
export function foreignKeyIndex(fk: ForeignKeySpec): IndexSpec {
  const name = fk.name !== '' ? fk.name : fk.indexName;
  return { ...(name !== undefined && name !== '' ? { name } : {}), columns: fk.columns.map((c) => ({ name: c })), unique: false, primary: false };
}

/**
 * The parent side of a new foreign key: the referenced table exists (1824) and has an index
 * starting with the referenced columns (1822). Skipped with foreign_key_checks=0.
 */
export function checkParent(fk: ForeignKeyInfo, parent: TableInfo | undefined): void {
  if (parent === undefined) throw SqlError.of('ER_FK_CANNOT_OPEN_PARENT', fk.refTable);
  for (const c of fk.refColumns) {
    if (!parent.columns.some((x) => x.name.toLowerCase() === c.toLowerCase())) throw SqlError.of('ER_FK_NO_INDEX_PARENT', fk.name, fk.refTable);
  }
  if (!hasLeadingIndex(parent.indexes, fk.refColumns)) throw SqlError.of('ER_FK_NO_INDEX_PARENT', fk.name, fk.refTable);
}

/** Strips spec-only fields (indexName) so the stored definition is a plain ForeignKeyInfo. */
export function storedForeignKey(fk: ForeignKeySpec): ForeignKeyInfo {
  return {
    name: fk.name, columns: fk.columns, refDb: fk.refDb, refTable: fk.refTable,
    refColumns: fk.refColumns, onDelete: fk.onDelete, onUpdate: fk.onUpdate,
  };
}
