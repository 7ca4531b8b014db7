/**
 * Row <-> KV pair: the ONE place that maps a table row (values by column offset) to its record.
 *
 *   key   = codec.recordKey(table.id, handle)        ('t' + id + '_r' + handle)
 *   value = codec.encodeRow(ids, values, types)      (row format v2, by column id)
 *
 * Handles: pkIsHandle => the int PK value ('int'); other primary keys => 'common', the
 * memcomparable encodeKeyValues of the (prefix-truncated) PK values; no primary key => a hidden
 * row id from Catalog.allocAutoId ('int').
 * The value stores every column (explicit NULLs included) except the int-handle PK column,
 * which is restored from the key. Common-handle PK columns are stored too (full values; the
 * handle may hold prefixes). A column id missing from a stored row (the column was added
 * later) reads as its origin default.
 * Example: t(id INT PRIMARY KEY, name VARCHAR(10)) row (7, 'x') => key t{id}_r{7},
 * value encodeRow([2], ['x']).
 */
import { compileRowEncoder, decodeKeyValues, decodeRow, decodeRowInto, encodeKeyValues, type Handle, recordKey, type RowEncoder } from '../codec/index.js';
import { type ColumnType, DateTime, type Value } from '../types/index.js';
import { columnOriginValue } from './column-default.js';
import { indexColumnTypes, indexValues } from './index-entry.js';
import type { ColumnInfo, IndexInfo, TableInfo } from './types.js';

interface Layout {
  /** Offset of the int-handle PK column, -1 if none. */
  readonly intPkOffset: number;
  readonly pk: IndexInfo | undefined;
  readonly decodeColumns: ReadonlyArray<{ readonly id: number; readonly type: ColumnType }>;
  /** encodeRow of the stored columns, compiled once (reads the row by offset). */
  readonly encode: RowEncoder;
}

const layouts = new WeakMap<TableInfo, Layout>();

function layoutOf(table: TableInfo): Layout {
  let layout = layouts.get(table);
  if (layout === undefined) {
    layout = computeLayout(table);
    if (Object.isFrozen(table)) layouts.set(table, layout);
  }
  return layout;
}

function computeLayout(table: TableInfo): Layout {
  const pk = table.indexes.find((ix) => ix.primary);
  const intPkOffset = table.pkIsHandle && pk?.columns[0] !== undefined ? pk.columns[0].offset : -1;
  const stored = table.columns.filter((c) => c.offset !== intPkOffset);
  const storedOffsets = stored.map((c) => c.offset);
  const storedIds = stored.map((c) => c.id);
  const storedTypes = stored.map((c) => c.type);
  return {
    intPkOffset,
    pk,
    decodeColumns: table.columns.map((c) => ({ id: c.id, type: c.type })),
    encode: compileRowEncoder(storedIds, storedTypes, storedOffsets),
  };
}

/** The row's handle: its int PK value, its common handle, or the hidden `rowId`. */
export function rowHandle(table: TableInfo, row: readonly Value[], rowId?: bigint): Handle {
  const layout = layoutOf(table);
  if (layout.intPkOffset >= 0) {
    const v = row[layout.intPkOffset];
    if (typeof v !== 'bigint') throw new Error(`int handle column of ${table.name} is not a bigint`);
    return { kind: 'int', value: v };
  }
  if (table.handleKind === 'common' && layout.pk !== undefined) {
    return { kind: 'common', encoded: encodeKeyValues(indexValues(layout.pk, row), indexColumnTypes(table, layout.pk)) };
  }
  if (rowId === undefined) throw new Error(`table ${table.name} has a hidden row id: rowHandle needs rowId`);
  return { kind: 'int', value: rowId };
}

export function recordKeyOf(table: TableInfo, handle: Handle): Uint8Array {
  return recordKey(table.id, handle);
}

export function encodeRecordValue(table: TableInfo, row: readonly Value[]): Uint8Array {
  return layoutOf(table).encode(row);
}

/** The full row by column offset. */
export function decodeRecord(table: TableInfo, handle: Handle, value: Uint8Array): Value[] {
  const layout = layoutOf(table);
  const decoded = decodeRow(value, layout.decodeColumns);
  const out = new Array<Value>(table.columns.length);
  let missing = false;
  for (let i = 0; i < out.length; i++) {
    const v = decoded[i];
    if (v !== undefined) out[i] = v;
    else if (i === layout.intPkOffset) out[i] = intHandleValue(table, handle);
    else missing = true;
  }
  if (missing) fillMissing(table, layout, handle, out, decoded);
  return out;
}

/**
 * A decoder of only the columns at `offsets` (others read as null): what an index entry needs,
 * without decoding the rest of the row. The record may sit at `value[start..end)` of a larger
 * (e.g. the store's reused) buffer; every value is copied out. Missing columns are restored
 * exactly as decodeRecord does. Built once per table and column set, then called per record.
 */
export function recordColumnsDecoder(
  table: TableInfo,
  offsets: readonly number[],
): (handle: Handle, value: Uint8Array, start?: number, end?: number) => Value[] {
  const layout = layoutOf(table);
  const wanted = offsets.filter((o) => o !== layout.intPkOffset);
  const columns = wanted.map((o) => layout.decodeColumns[o] as { readonly id: number; readonly type: ColumnType });
  const withPk = layout.intPkOffset >= 0 && offsets.includes(layout.intPkOffset);
  const blank = new Array<Value>(table.columns.length).fill(null);
  return (handle, value, start = 0, end = value.length) => {
    const out = blank.slice();
    const absent = decodeRowInto(value, start, end, columns, out, wanted);
    if (withPk) out[layout.intPkOffset] = intHandleValue(table, handle);
    if (absent > 0) restoreAbsent(table, layout, handle, value.subarray(start, end), columns, wanted, out);
    return out;
  };
}

/**
 * Whether a recordColumnsDecoder(table, offsets) reads the handle it is given: for a table with
 * an int handle only when its PK column is among `offsets` (any handle may be passed otherwise:
 * the values it decodes do not depend on it).
 */
export function decoderReadsHandle(table: TableInfo, offsets: readonly number[]): boolean {
  const layout = layoutOf(table);
  return table.handleKind !== 'int' || (layout.intPkOffset >= 0 && offsets.includes(layout.intPkOffset));
}

/** Fills the wanted columns the stored row does not carry (added after it was written). */
function restoreAbsent(
  table: TableInfo,
  layout: Layout,
  handle: Handle,
  value: Uint8Array,
  columns: ReadonlyArray<{ readonly id: number; readonly type: ColumnType }>,
  wanted: readonly number[],
  out: Value[],
): void {
  const got = decodeRow(value, columns);
  const decoded = new Array<Value | undefined>(out.length);
  wanted.forEach((o, k) => (decoded[o] = got[k]));
  if (layout.intPkOffset >= 0) decoded[layout.intPkOffset] = out[layout.intPkOffset];
  const full = new Array<Value>(out.length);
  fillMissing(table, layout, handle, full, decoded);
  wanted.forEach((o, k) => {
    if (got[k] === undefined) out[o] = full[o] as Value;
  });
}

function intHandleValue(table: TableInfo, handle: Handle): bigint {
  if (handle.kind !== 'int') throw new Error(`table ${table.name} expects an int handle`);
  return handle.value;
}

/** Columns absent from the stored row: common-handle PK parts from the handle, else origin defaults. */
function fillMissing(table: TableInfo, layout: Layout, handle: Handle, out: Value[], decoded: ReadonlyArray<Value | undefined>): void {
  const fromHandle = commonHandleValues(table, layout, handle);
  let now: DateTime | undefined;
  for (let i = 0; i < out.length; i++) {
    if (decoded[i] !== undefined || i === layout.intPkOffset) continue;
    const restored = fromHandle.get(i);
    if (restored !== undefined) {
      out[i] = restored;
      continue;
    }
    now ??= currentDateTime();
    out[i] = columnOriginValue(table.columns[i] as ColumnInfo, now);
  }
}

/** Full (non-prefix) common-handle PK column values by offset. */
function commonHandleValues(table: TableInfo, layout: Layout, handle: Handle): Map<number, Value> {
  const out = new Map<number, Value>();
  if (handle.kind !== 'common' || layout.pk === undefined || table.handleKind !== 'common') return out;
  const { values } = decodeKeyValues(handle.encoded, indexColumnTypes(table, layout.pk));
  layout.pk.columns.forEach((part, i) => {
    const v = values[i];
    if (part.length === undefined && v !== undefined) out.set(part.offset, v);
  });
  return out;
}

/** The current local time as a DATETIME(6). */
export function currentDateTime(): DateTime {
  const d = new Date();
  return new DateTime(
    'datetime', d.getFullYear(), d.getMonth() + 1, d.getDate(),
    d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds() * 1000, 6,
  );
}
