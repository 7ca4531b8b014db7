/**
 * Index entries (TiDB rule). For index `ix` of table `t` and a row with handle `h`:
 * - UNIQUE index and no NULL among the indexed values => "distinct" entry:
 *     key   = indexKey(t.id, ix.id, values)            value = encodeIndexValue(h)
 *   so two rows with the same values collide on the key (duplicate check = one get);
 * - otherwise (non-unique, or a NULL present, which UNIQUE allows repeatedly):
 *     key   = indexKey(t.id, ix.id, values, h)         value = encodeIndexValue(null)
 * Prefix columns `col(N)` index the first N characters (strings) or bytes (binary values).
 * The PRIMARY index never has entries (the row key is the handle); callers skip it.
 */
import { encodeIndexValue, type Handle, indexKey } from '../codec/index.js';
import type { ColumnType, Value } from '../types/index.js';
import type { IndexColumnInfo, IndexInfo, TableInfo } from './types.js';

/** Per frozen (immutable) TableInfo: index id -> key part types. */
const typeCache = new WeakMap<TableInfo, Map<number, ColumnType[]>>();

/** The column types of the index's key parts, in key order. Treat the result as read-only. */
export function indexColumnTypes(table: TableInfo, index: IndexInfo): ColumnType[] {
  let perTable = typeCache.get(table);
  if (perTable === undefined) {
    perTable = new Map();
    if (Object.isFrozen(table)) typeCache.set(table, perTable);
  }
  let types = perTable.get(index.id);
  if (types === undefined) {
    types = index.columns.map((c) => columnAt(table, c).type);
    perTable.set(index.id, types);
  }
  return types;
}

/** The indexed values of `row` (prefix-truncated), in key order. */
export function indexValues(index: IndexInfo, row: readonly Value[]): Value[] {
  return index.columns.map((c) => {
    const v = row[c.offset];
    if (v === undefined) throw new Error(`row has no value at offset ${c.offset} for index ${index.name}`);
    return c.length === undefined ? v : prefixOf(v, c.length);
  });
}

export function indexEntry(
  table: TableInfo,
  index: IndexInfo,
  row: readonly Value[],
  handle: Handle,
): { key: Uint8Array; value: Uint8Array; distinct: boolean } {
  const values = indexValues(index, row);
  const types = indexColumnTypes(table, index);
  const distinct = index.unique && !values.includes(null);
  if (distinct) return { key: indexKey(table.id, index.id, values, types), value: encodeIndexValue(handle), distinct };
  return { key: indexKey(table.id, index.id, values, types, handle), value: encodeIndexValue(null), distinct };
}

/** First `n` characters of a string or bytes of a byte string; other values are unchanged. */
export function prefixOf(v: Value, n: number): Value {
  if (typeof v === 'string') return v.length <= n ? v : firstChars(v, n);
  if (v instanceof Uint8Array) return v.length <= n ? v : v.slice(0, n);
  return v;
}

function firstChars(s: string, n: number): string {
  let units = 0;
  for (let chars = 0; chars < n && units < s.length; chars++) {
    const code = s.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, units);
}

function columnAt(table: TableInfo, part: IndexColumnInfo): TableInfo['columns'][number] {
  const col = table.columns[part.offset];
  if (col === undefined) throw new Error(`index column ${part.name} at offset ${part.offset} missing in ${table.name}`);
  return col;
}
