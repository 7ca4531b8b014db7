/**
 * The key a PointGet / BatchPointGet reads, computed from its value expressions at run time:
 * the record key (int or common handle) or the unique index key.
 */
import { encodeKeyValues, indexKey, recordKey, type Handle } from '../../codec/index.js';
import { indexColumnTypes, type IndexInfo, type TableInfo } from '../../catalog/index.js';
import type { ColumnType, Value } from '../../types/index.js';
import type { Expr } from '../parse/index.js';
import { compileExpr, type Evaluator } from '../expr/index.js';
import { EMPTY_SCHEMA, handleColumns } from '../plan/index.js';
import type { ExecContext } from './context.js';
import { EMPTY, UNUSABLE, convertKeyValue } from './range-values.js';

export type PointKey =
  | { readonly kind: 'record'; readonly key: Uint8Array; readonly handle: Handle }
  | { readonly kind: 'index'; readonly key: Uint8Array };

export class PointKeyer {
  private readonly types: readonly ColumnType[];
  private readonly intHandle: boolean;

  constructor(
    private readonly table: TableInfo,
    private readonly index: IndexInfo | null,
  ) {
    this.types = index === null ? handleColumns(table).map((c) => c.type) : indexColumnTypes(table, index);
    this.intHandle = index === null && table.handleKind === 'int';
  }

  compile(values: readonly Expr[]): Evaluator[] {
    return values.map((e) => compileExpr(e, EMPTY_SCHEMA, 'where clause'));
  }

  /** The key for one value tuple; EMPTY when it cannot match; UNUSABLE when a scan must decide. */
  key(evals: readonly Evaluator[], ctx: ExecContext): PointKey | typeof EMPTY | typeof UNUSABLE {
    // An int handle (every sysbench point select) skips keyFrom's closure.
    if (this.intHandle) return this.intKey((evals[0] as Evaluator)([], ctx));
    return this.keyFrom(evals.length, (i) => (evals[i] as Evaluator)([], ctx));
  }

  /** key() of values already computed (one per key column). */
  keyOf(values: readonly Value[]): PointKey | typeof EMPTY | typeof UNUSABLE {
    return this.keyFrom(values.length, (i) => values[i] ?? null);
  }

  private keyFrom(count: number, valueAt: (i: number) => Value): PointKey | typeof EMPTY | typeof UNUSABLE {
    if (this.intHandle) return this.intKey(valueAt(0));
    const vals: Value[] = [];
    for (let i = 0; i < count; i++) {
      const v = convertKeyValue(valueAt(i), this.types[i] as ColumnType, 'eq');
      if (v === EMPTY || v === UNUSABLE) return v;
      vals.push(v);
    }
    return this.tupleKey(vals);
  }

  private intKey(value: Value): PointKey | typeof EMPTY | typeof UNUSABLE {
    const v = convertKeyValue(value, this.types[0] as ColumnType, 'eq');
    if (v === EMPTY || v === UNUSABLE) return v;
    const handle: Handle = { kind: 'int', value: v as bigint };
    return { kind: 'record', key: recordKey(this.table.id, handle), handle };
  }

  /** The key of converted key-column values (an index entry's or a common handle's). */
  private tupleKey(vals: readonly Value[]): PointKey {
    if (this.index !== null) return { kind: 'index', key: indexKey(this.table.id, this.index.id, vals, this.types) };
    const handle: Handle = { kind: 'common', encoded: encodeKeyValues(vals, this.types) };
    return { kind: 'record', key: recordKey(this.table.id, handle), handle };
  }
}
