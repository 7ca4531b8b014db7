/**
 * Key lookups for FOREIGN KEY checks: does a parent row with these referenced values exist
 * (through the primary key or an index starting with the referenced columns), and which child
 * rows hold these values (through the index InnoDB requires on the child columns).
 * Values are first converted to the looked-up table's column types; a value that does not
 * convert cannot match.
 */
import { indexColumnTypes, primaryIndex, type ColumnInfo, type IndexInfo, type TableInfo } from '../../catalog/index.js';
import { decodeIndexKey, decodeIndexValue, decodeRecordKey, encodeKeyValues, indexKey, recordKey, type Handle } from '../../codec/index.js';
import type { Txn } from '../../txn/index.js';
import type { Value } from '../../types/index.js';
import { prefixEnd } from '../../util/index.js';
import { coerceToColumn, type EvalContext } from '../expr/index.js';

/** Index (or PRIMARY) of `table` whose leading columns are exactly `names`, in order. */
export function leadingIndex(table: TableInfo, names: readonly string[]): IndexInfo | undefined {
  const lower = names.map((n) => n.toLowerCase());
  const fits = (ix: IndexInfo): boolean =>
    ix.state === 'public' && ix.columns.length >= lower.length
    && lower.every((n, i) => ix.columns[i]?.name.toLowerCase() === n && ix.columns[i]?.length === undefined);
  const pk = primaryIndex(table);
  if (pk !== undefined && fits(pk)) return pk;
  return table.indexes.find((ix) => !ix.primary && fits(ix));
}

export function columnsByName(table: TableInfo, names: readonly string[]): ColumnInfo[] {
  return names.map((n) => {
    const col = table.columns.find((c) => c.name.toLowerCase() === n.toLowerCase());
    if (col === undefined) throw new Error(`column ${n} missing in ${table.name}`);
    return col;
  });
}

/** `values` converted to `columns`' types, or null when one does not convert. */
export function convertKey(values: readonly Value[], columns: readonly ColumnInfo[], ctx: EvalContext): Value[] | null {
  const quiet = overrideContext(ctx, true, () => undefined);
  try {
    return values.map((v, i) => (v === null ? null : coerceToColumn(v, columns[i] as ColumnInfo, 1, quiet)));
  } catch {
    return null;
  }
}

/** `ctx` (class instances included: its prototype chain stays) with `strict` and `warn` replaced. */
export function overrideContext(ctx: EvalContext, strict: boolean, warn: EvalContext['warn']): EvalContext {
  const o = Object.create(ctx) as EvalContext;
  Object.defineProperty(o, 'strict', { value: strict });
  Object.defineProperty(o, 'warn', { value: warn });
  return o;
}

/** The key range holding the entries (or records) of `table` whose leading `ix` columns equal `values`. */
function keyRange(table: TableInfo, ix: IndexInfo, values: readonly Value[]): { start: Uint8Array; end: Uint8Array; exact: boolean } {
  const types = indexColumnTypes(table, ix).slice(0, values.length);
  if (ix.primary) {
    const exact = values.length === ix.columns.length;
    if (table.pkIsHandle) {
      const key = recordKey(table.id, { kind: 'int', value: values[0] as bigint });
      return { start: key, end: prefixEnd(key), exact: true };
    }
    const start = recordKey(table.id, { kind: 'common', encoded: encodeKeyValues(values, types) });
    return { start, end: prefixEnd(start), exact };
  }
  const start = indexKey(table.id, ix.id, values, types);
  return { start, end: prefixEnd(start), exact: false };
}

/** The key of a parent row holding `values` in `ix`'s leading columns (locked by the caller), or undefined. */
export async function findParentKey(txn: Txn, parent: TableInfo, ix: IndexInfo, values: readonly Value[]): Promise<Uint8Array | undefined> {
  const range = keyRange(parent, ix, values);
  if (range.exact) return (await txn.get(range.start)) === undefined ? undefined : range.start;
  const found = await txn.scan({ start: range.start, end: range.end }, { limit: 1 });
  return found[0]?.key;
}

/** Handles of the child rows whose leading `ix` columns equal `values` (at most `limit`). */
export async function findChildHandles(txn: Txn, child: TableInfo, ix: IndexInfo, values: readonly Value[], limit: number): Promise<Handle[]> {
  const range = keyRange(child, ix, values);
  if (ix.primary) {
    if (range.exact) return (await txn.get(range.start)) === undefined ? [] : [decodeRecordKey(range.start).handle];
    const pairs = await txn.scan({ start: range.start, end: range.end }, { limit });
    return pairs.map((p) => decodeRecordKey(p.key).handle);
  }
  const pairs = await txn.scan({ start: range.start, end: range.end }, { limit });
  const types = indexColumnTypes(child, ix);
  const kind = child.handleKind === 'common' ? 'common' : 'int';
  return pairs.map((p) => decodeIndexValue(p.value) ?? (decodeIndexKey(p.key, types, kind).handle as Handle));
}
