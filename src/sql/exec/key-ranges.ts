/**
 * Run-time key ranges of a RangeSpec: bound expressions are evaluated with the statement's
 * params, converted to the key column types and encoded. One KeyRange per point combination.
 */
import { encodeKeyValues, recordKey, recordPrefix, indexPrefix } from '../../codec/index.js';
import type { Txn } from '../../txn/index.js';
import type { ColumnType, Value } from '../../types/index.js';
import { compareBytes, concatBytes, prefixEnd } from '../../util/index.js';
import { compileExpr, type Evaluator } from '../expr/index.js';
import { EMPTY_SCHEMA, type RangeSpec } from '../plan/index.js';
import type { ExecContext } from './context.js';
import { EMPTY, UNUSABLE, convertBound, convertKeyValue } from './range-values.js';

/** Where keys live: the int-handle record space, or memcomparable tuples after a prefix. */
export interface KeySpace {
  readonly intHandle: boolean;
  readonly tableId: number;
  readonly prefix: Uint8Array;
  readonly types: readonly ColumnType[];
}

export function recordSpace(tableId: number, intHandle: boolean, types: readonly ColumnType[]): KeySpace {
  return { intHandle, tableId, prefix: recordPrefix(tableId), types };
}

export function indexSpace(tableId: number, indexId: number, types: readonly ColumnType[]): KeySpace {
  return { intHandle: false, tableId, prefix: indexPrefix(tableId, indexId), types };
}

export function fullRange(space: KeySpace): KeyRange {
  return { start: space.prefix, end: prefixEnd(space.prefix) };
}

/** The key of a value tuple (a prefix of the key columns). */
export function encodeTuple(space: KeySpace, values: readonly Value[]): Uint8Array {
  if (values.length === 0) return space.prefix;
  if (space.intHandle) return recordKey(space.tableId, { kind: 'int', value: values[0] as bigint });
  return concatBytes([space.prefix, encodeKeyValues(values, space.types.slice(0, values.length))]);
}

/** The txn's key range type (exec does not import kv directly). */
export type KeyRange = Parameters<Txn['scan']>[0];

interface Bound {
  readonly eval: Evaluator;
  readonly inclusive: boolean;
}

export class CompiledRanges {
  private readonly points: ReadonlyArray<ReadonlyArray<Evaluator | null>>;
  private readonly lows: readonly Bound[];
  private readonly highs: readonly Bound[];

  constructor(
    spec: RangeSpec,
    private readonly space: KeySpace,
  ) {
    const compile = (e: Parameters<typeof compileExpr>[0]): Evaluator => compileExpr(e, EMPTY_SCHEMA, 'where clause');
    this.points = spec.points.map((alts) => alts.map((p) => (p.kind === 'null' ? null : compile(p.expr))));
    this.lows = spec.lows.map((b) => ({ eval: compile(b.expr), inclusive: b.inclusive }));
    this.highs = spec.highs.map((b) => ({ eval: compile(b.expr), inclusive: b.inclusive }));
  }

  compute(ctx: ExecContext): KeyRange[] {
    let tuples: Value[][] = [[]];
    let usable = true;
    for (let i = 0; i < this.points.length && usable; i++) {
      const vals = this.pointValues(i, ctx);
      if (vals === null) {
        usable = false;
        break;
      }
      if (vals.length === 0) return [];
      tuples = tuples.length === 1 && tuples[0]?.length === 0 ? vals.map((v) => [v]) : tuples.flatMap((t) => vals.map((v) => [...t, v]));
    }
    const ranges: KeyRange[] = [];
    const col = tuples[0]?.length ?? 0;
    const interval = usable && col === this.points.length && this.lows.length + this.highs.length > 0;
    for (const t of tuples) {
      const r = interval ? this.intervalRange(t, col, ctx) : this.prefixRange(t);
      if (r === null) return [];
      if (compareBytes(r.start, r.end) < 0) ranges.push(r);
    }
    return dedupe(ranges);
  }

  private pointValues(i: number, ctx: ExecContext): Value[] | null {
    const type = this.space.types[i] as ColumnType;
    const out: Value[] = [];
    for (const ev of this.points[i] ?? []) {
      if (ev === null) {
        if (!this.space.intHandle) out.push(null);
        continue;
      }
      const c = convertKeyValue(ev([], ctx), type, 'eq');
      if (c === UNUSABLE) return null;
      if (c !== EMPTY) out.push(c);
    }
    return out;
  }

  private prefixRange(t: readonly Value[]): KeyRange {
    const key = encodeTuple(this.space, t);
    return { start: key, end: prefixEnd(key) };
  }

  /** null = the interval is empty for every tuple. */
  private intervalRange(t: readonly Value[], col: number, ctx: ExecContext): KeyRange | null {
    const type = this.space.types[col] as ColumnType;
    const base = encodeTuple(this.space, t);
    let start = this.space.intHandle || col >= this.space.types.length ? base : prefixEnd(encodeTuple(this.space, [...t, null]));
    let end = prefixEnd(base);
    for (const b of this.lows) {
      const c = convertBound(b.eval([], ctx), type, 'low', b.inclusive);
      if (c === EMPTY) return null;
      if (c === UNUSABLE) continue;
      const k = encodeTuple(this.space, [...t, c.value]);
      const s = c.inclusive ? k : prefixEnd(k);
      if (compareBytes(s, start) > 0) start = s;
    }
    for (const b of this.highs) {
      const c = convertBound(b.eval([], ctx), type, 'high', b.inclusive);
      if (c === EMPTY) return null;
      if (c === UNUSABLE) continue;
      const k = encodeTuple(this.space, [...t, c.value]);
      const e = c.inclusive ? prefixEnd(k) : k;
      if (compareBytes(e, end) < 0) end = e;
    }
    return { start, end };
  }
}

function dedupe(ranges: KeyRange[]): KeyRange[] {
  if (ranges.length < 2) return ranges;
  ranges.sort((a, b) => compareBytes(a.start, b.start));
  const out: KeyRange[] = [ranges[0] as KeyRange];
  for (let i = 1; i < ranges.length; i++) {
    const r = ranges[i] as KeyRange;
    const last = out[out.length - 1] as KeyRange;
    if (compareBytes(r.start, last.end) <= 0) {
      if (compareBytes(r.end, last.end) > 0) out[out.length - 1] = { start: last.start, end: r.end };
    } else out.push(r);
  }
  return out;
}
