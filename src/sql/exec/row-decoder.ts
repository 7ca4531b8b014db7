/**
 * Record value -> reader row: the table's columns by offset plus the hidden handle slot at the
 * end. Only the needed columns are decoded (the others stay null); the int-handle PK column
 * comes from the key; columns added after the row was written read as their origin default.
 */
import { decodeIntHandleAt, decodeRow, decodeRowInto, decodeRecordKey, type Handle } from '../../codec/index.js';
import { columnOriginValue, type ColumnInfo, type TableInfo } from '../../catalog/index.js';
import { type ColumnType, DateTime, type Value } from '../../types/index.js';
import { copyBytes } from '../../util/index.js';
import { primaryIndex } from '../plan/index.js';
import type { Row } from './executor.js';

export class RowDecoder {
  private readonly width: number;
  private readonly intPk: number;
  private readonly decodeCols: ReadonlyArray<{ readonly id: number; readonly type: ColumnType }>;
  private readonly offsets: readonly number[];
  /** width + 1 nulls: each row starts as a copy (cheaper than new Array().fill()). */
  private readonly blank: Value[];

  constructor(
    private readonly table: TableInfo,
    needed: readonly number[],
  ) {
    this.width = table.columns.length;
    this.blank = new Array<Value>(this.width + 1).fill(null);
    const pk = primaryIndex(table);
    this.intPk = table.pkIsHandle && pk?.columns[0] !== undefined ? pk.columns[0].offset : -1;
    const cols = needed.filter((o) => o !== this.intPk).map((o) => table.columns[o] as ColumnInfo);
    this.decodeCols = cols.map((c) => ({ id: c.id, type: c.type }));
    this.offsets = cols.map((c) => c.offset);
  }

  get tableInfo(): TableInfo {
    return this.table;
  }

  /** Decodes a record whose handle is known. */
  decode(handle: Handle, value: Uint8Array): Row {
    const row = this.values(value, 0, value.length);
    if (handle.kind === 'int') this.setIntHandle(row, handle.value);
    else row[this.width] = handle.encoded;
    return row;
  }

  /** Decodes a record read by key (scans); an int handle is read without a Handle object. */
  decodeKeyed(key: Uint8Array, value: Uint8Array): Row {
    return this.decodeKeyedAt(key, 0, key.length, value, 0, value.length);
  }

  /** decodeKeyed of the pair stored at `key[ks..ke)` and `value[vs..ve)` (scanMapped's offsets; nothing is kept). */
  decodeKeyedAt(key: Uint8Array, ks: number, ke: number, value: Uint8Array, vs: number, ve: number): Row {
    // A copy of the key: the handle keeps bytes of it (and a Buffer's slice() would be a view).
    if (this.table.handleKind !== 'int') return this.decode(decodeRecordKey(copyBytes(key, ks, ke), 'common').handle, value.subarray(vs, ve));
    const row = this.values(value, vs, ve);
    this.setIntHandle(row, decodeIntHandleAt(key, ks, ke));
    return row;
  }

  private setIntHandle(row: Row, handle: bigint): void {
    if (this.intPk >= 0) row[this.intPk] = handle;
    row[this.width] = handle;
  }

  /** The row with the needed stored columns of `value[start..end)` decoded (the others null, the handle slot unset). */
  private values(value: Uint8Array, start: number, end: number): Row {
    const row = this.blank.slice();
    if (this.decodeCols.length === 0) return row;
    if (decodeRowInto(value, start, end, this.decodeCols, row, this.offsets) === 0) return row;
    // Columns added after this row was written read as their origin default (rare: redo).
    const vals = decodeRow(value.subarray(start, end), this.decodeCols);
    for (let i = 0; i < this.offsets.length; i++) {
      const v = vals[i];
      const off = this.offsets[i] as number;
      row[off] = v === undefined ? this.missing(off) : v;
    }
    return row;
  }

  private missing(off: number): Value {
    const col = this.table.columns[off] as ColumnInfo;
    return columnOriginValue(col, nowish());
  }
}

function nowish(): DateTime {
  const d = new Date();
  return new DateTime('datetime', d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), 0, 0);
}

/** The Handle stored in a reader row's hidden slot. */
export function handleOf(table: TableInfo, row: readonly Value[]): Handle {
  const v = row[table.columns.length];
  if (typeof v === 'bigint') return { kind: 'int', value: v };
  if (v instanceof Uint8Array) return { kind: 'common', encoded: v };
  throw new Error(`row of ${table.name} carries no handle`);
}
