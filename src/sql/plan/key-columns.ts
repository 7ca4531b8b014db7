/** The key columns of a table's handle and of its indexes, as access paths see them. */
import type { IndexInfo, TableInfo } from '../../catalog/index.js';
import { keyPreservesValue } from '../../types/index.js';
import type { KeyColumn } from './nodes.js';

export function primaryIndex(table: TableInfo): IndexInfo | undefined {
  return table.indexes.find((i) => i.primary);
}

/** Columns of the row handle: the int PK, the common-handle PK columns, or none (hidden row id). */
export function handleColumns(table: TableInfo): KeyColumn[] {
  const pk = primaryIndex(table);
  if (pk === undefined || (!table.pkIsHandle && table.handleKind !== 'common')) return [];
  return indexKeyColumns(table, pk);
}

/** The index's leading columns usable for ranges (stops at the first prefix-length column). */
export function indexKeyColumns(table: TableInfo, index: IndexInfo): KeyColumn[] {
  const out: KeyColumn[] = [];
  for (const ic of index.columns) {
    if (ic.length !== undefined) break;
    const col = table.columns[ic.offset];
    if (col === undefined) break;
    out.push({ offset: ic.offset, name: col.name, type: col.type });
  }
  return out;
}

/** Secondary indexes readable by queries (public, not the clustered PRIMARY). */
export function readableIndexes(table: TableInfo): IndexInfo[] {
  return table.indexes.filter((i) => i.state === 'public' && !i.primary);
}

/**
 * True if every needed column can be read from the index entry (index columns + handle). A
 * string column under a `_ci` collation cannot: its key holds the collation weight.
 */
export function isCovering(table: TableInfo, index: IndexInfo, needed: readonly number[]): boolean {
  const have = new Set<number>();
  for (const ic of index.columns) {
    const col = table.columns[ic.offset];
    if (ic.length === undefined && col !== undefined && keyPreservesValue(col.type)) have.add(ic.offset);
  }
  for (const k of handleColumns(table)) if (keyPreservesValue(k.type)) have.add(k.offset);
  return needed.every((o) => have.has(o));
}
