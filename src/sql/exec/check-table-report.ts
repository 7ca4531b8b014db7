/**
 * What ADMIN CHECK TABLE found wrong with one table, merged per (index, handle) and turned into
 * one ER_DATA_INCONSISTENT (8134) error in TiDB's wording:
 *
 *   data inconsistency in table: db.t, index: k_b, handle: 3, index-values:(b=7) != record-values:(b=8);
 *   index: k_b, handle: 9, index-values:(b=2) != record-values:<no row>; 2 inconsistencies in all
 *
 * `<no entry>` = the row has no entry in the index; `<no row>` = the entry points to a missing
 * record; an entry whose value names another row reads `(u=3) of handle 6`. Rows or entries that
 * do not decode are reported with the decoder's reason. The first MAX_SHOWN are spelled out.
 */
import { decodeKeyValues, type Handle } from '../../codec/index.js';
import { indexColumnTypes, primaryIndex, type IndexInfo, type TableInfo } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import { Decimal, type Value } from '../../types/index.js';
import { toHex } from '../../util/index.js';

export const MAX_SHOWN = 3;
/** Findings kept for merging; beyond it they are only counted. */
const MAX_KEPT = 1000;

interface Finding {
  readonly index: string;
  readonly handle: string;
  indexValues: string;
  recordValues: string;
  /** Set for undecodable records / entries: the whole description. */
  text?: string;
}

export class InconsistencyReport {
  private readonly findings = new Map<string, Finding>();
  private dropped = 0;

  constructor(private readonly table: TableInfo) {}

  get count(): number {
    return this.findings.size + this.dropped;
  }

  /** The row at `handle` has no (or a different) entry in `index`. */
  rowWithoutEntry(index: IndexInfo, handle: Handle, recordValues: readonly Value[], found: string): void {
    const f = this.finding(index.name, handleText(this.table, handle));
    if (f === undefined) return;
    if (f.indexValues === '') f.indexValues = found;
    f.recordValues = valuesText(index, recordValues);
  }

  /** The entry of `index` (values `indexValues`) points to `handle`, whose row produces another entry or none. */
  entryWithoutRow(index: IndexInfo, handle: Handle, indexValues: readonly Value[], recordValues: readonly Value[] | null): void {
    const f = this.finding(index.name, handleText(this.table, handle));
    if (f === undefined) return;
    f.indexValues = valuesText(index, indexValues);
    if (f.recordValues === '') f.recordValues = recordValues === null ? '<no row>' : valuesText(index, recordValues);
  }

  /** A record or index entry that does not decode: `what` names it, `reason` is the decoder's. */
  undecodable(index: string, what: string, reason: string): void {
    const f = this.finding(index, what);
    if (f !== undefined) f.text = `${what} cannot be decoded: ${reason}`;
  }

  /** Throws ER_DATA_INCONSISTENT when anything was found. */
  throwIfAny(): void {
    if (this.count === 0) return;
    const shown = [...this.findings.values()].slice(0, MAX_SHOWN).map(findingText);
    const total = this.count;
    const tail = `${total} inconsistenc${total === 1 ? 'y' : 'ies'} in all${total > MAX_SHOWN ? ` (first ${MAX_SHOWN} shown)` : ''}`;
    throw SqlError.of('ER_DATA_INCONSISTENT', `${this.table.dbName}.${this.table.name}`, `${shown.join('; ')}; ${tail}`);
  }

  private finding(index: string, handle: string): Finding | undefined {
    const key = `${index}\u0000${handle}`;
    let f = this.findings.get(key);
    if (f === undefined) {
      if (this.findings.size >= MAX_KEPT) {
        this.dropped++;
        return undefined;
      }
      f = { index, handle, indexValues: '', recordValues: '' };
      this.findings.set(key, f);
    }
    return f;
  }
}

function findingText(f: Finding): string {
  if (f.text !== undefined) return `index: ${f.index}, ${f.text}`;
  return `index: ${f.index}, handle: ${f.handle}, index-values:${f.indexValues || '<no entry>'} != record-values:${f.recordValues}`;
}

/** `5` for an int handle; `(a='x', b=2)` for a common handle (its primary key values). */
export function handleText(table: TableInfo, handle: Handle): string {
  if (handle.kind === 'int') return handle.value.toString();
  const pk = primaryIndex(table);
  if (pk === undefined) return `0x${toHex(handle.encoded)}`;
  try {
    const { values } = decodeKeyValues(handle.encoded, indexColumnTypes(table, pk));
    return valuesText(pk, values);
  } catch {
    return `0x${toHex(handle.encoded)}`;
  }
}

/** `(b=7, c(3)='abc')`: the index's columns with their (prefix) values. */
export function valuesText(index: IndexInfo, values: readonly Value[]): string {
  const parts = index.columns.map((c, i) => {
    const name = c.length === undefined ? c.name : `${c.name}(${c.length})`;
    return `${name}=${valueText(values[i] ?? null)}`;
  });
  return `(${parts.join(', ')})`;
}

export function valueText(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (v instanceof Uint8Array) return `0x${toHex(v)}`;
  if (v instanceof Decimal) return v.toFixed();
  if (typeof v === 'bigint' || typeof v === 'number') return String(v);
  return `'${v.toString()}'`;
}
