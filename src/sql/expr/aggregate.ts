/**
 * Aggregate accumulators: COUNT (NULLs ignored; COUNT(*) is fed 1n per row), SUM (exact args ->
 * Decimal, others -> double; NULL on no rows), AVG (exact: scale + 4), MIN/MAX (compareValues),
 * GROUP_CONCAT (default separator ','; no group_concat_max_len cut), BIT_AND/OR/XOR (unsigned
 * 64-bit; empty input gives the identity). DISTINCT dedupes by a canonical key of each value.
 */
import type { AggName } from '../parse/ast.js';
import { DateTime, Decimal, Duration, isIntegerType, typeCollation, type Collation, type ColumnType, type Value } from '../../types/index.js';
import { toHex } from '../../util/index.js';
import { valueComparator } from './compare.js';
import { toBits } from './bit-ops.js';
import { jsonArrayAgg, jsonObjectAgg } from './json-aggregate.js';
import { toDecimal, toDouble, UINT64_MAX } from './to-number.js';
import { valueToString } from './value-to-string.js';

export { aggregateType } from './aggregate-type.js';

export interface Aggregator {
  add(v: Value): void;
  result(): Value;
}

/**
 * Equal keys for values DISTINCT treats as equal (1, 1.0 and 1e0 share one key; strings by
 * their weight under `coll`, so 'a' and 'A' share one under a `_ci` collation).
 */
export function distinctKey(v: Exclude<Value, null>, coll?: Collation): string {
  if (typeof v === 'string') return `s:${coll === undefined ? v : coll.weight(v)}`;
  if (typeof v === 'bigint') return `n:${v}`;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? `n:${v}` : `n:${new Decimal(v).toString()}`;
  if (v instanceof Decimal) return v.isInteger() ? `n:${v.toFixed(0)}` : `n:${v.toString()}`;
  if (v instanceof Uint8Array) return `b:${toHex(v)}`;
  if (v instanceof DateTime) return `d:${v.toPacked()}`;
  if (v instanceof Duration) return `t:${v.micros}`;
  return `?:${String(v)}`;
}

class Distinct implements Aggregator {
  readonly #seen = new Set<string>();
  constructor(
    private readonly inner: Aggregator,
    private readonly coll: Collation,
  ) {}
  add(v: Value): void {
    if (v === null) return;
    const key = distinctKey(v, this.coll);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.inner.add(v);
  }
  result(): Value {
    return this.inner.result();
  }
}

class Count implements Aggregator {
  #n = 0n;
  add(v: Value): void {
    if (v !== null) this.#n++;
  }
  result(): Value {
    return this.#n;
  }
}

/** Exact sum: bigints accumulate as bigint, anything else switches to Decimal. */
class ExactSum {
  #int = 0n;
  #dec: Decimal | null = null;
  count = 0;
  add(v: Exclude<Value, null>): void {
    this.count++;
    if (typeof v === 'bigint') this.#int += v;
    else this.#dec = (this.#dec ?? new Decimal(0)).plus(toDecimal(v) as Decimal);
  }
  total(): Decimal {
    const base = new Decimal(this.#int.toString());
    return this.#dec === null ? base : base.plus(this.#dec);
  }
}

class Sum implements Aggregator {
  readonly #exact: ExactSum | null;
  #real = 0;
  #count = 0;
  constructor(exact: boolean, private readonly avgScale: number | null) {
    this.#exact = exact ? new ExactSum() : null;
  }
  add(v: Value): void {
    if (v === null) return;
    this.#count++;
    if (this.#exact !== null) this.#exact.add(v);
    else this.#real += toDouble(v) as number;
  }
  result(): Value {
    if (this.#count === 0) return null;
    if (this.#exact === null) return this.avgScale === null ? this.#real : this.#real / this.#count;
    const total = this.#exact.total();
    if (this.avgScale === null) return total;
    return total.dividedBy(this.#count).toDecimalPlaces(this.avgScale, Decimal.ROUND_HALF_UP);
  }
}

class Extreme implements Aggregator {
  #best: Value = null;
  readonly #compare: (a: Value, b: Value) => number | null;
  constructor(
    private readonly wantMax: boolean,
    coll: Collation,
  ) {
    this.#compare = valueComparator(coll);
  }
  add(v: Value): void {
    if (v === null) return;
    if (this.#best === null) {
      this.#best = v;
      return;
    }
    const c = this.#compare(v, this.#best) as number;
    if (this.wantMax ? c > 0 : c < 0) this.#best = v;
  }
  result(): Value {
    return this.#best;
  }
}

class GroupConcat implements Aggregator {
  readonly #parts: string[] = [];
  constructor(private readonly separator: string) {}
  add(v: Value): void {
    if (v !== null) this.#parts.push(valueToString(v));
  }
  result(): Value {
    return this.#parts.length === 0 ? null : this.#parts.join(this.separator);
  }
}

class Bits implements Aggregator {
  #acc: bigint;
  constructor(private readonly op: 'BIT_AND' | 'BIT_OR' | 'BIT_XOR') {
    this.#acc = op === 'BIT_AND' ? UINT64_MAX : 0n;
  }
  add(v: Value): void {
    const b = toBits(v);
    if (b === null) return;
    if (this.op === 'BIT_AND') this.#acc &= b;
    else if (this.op === 'BIT_OR') this.#acc |= b;
    else this.#acc ^= b;
  }
  result(): Value {
    return this.#acc;
  }
}

function isExactType(t: ColumnType): boolean {
  return isIntegerType(t) || t.kind === 'decimal';
}

function base(name: AggName, argType: ColumnType, separator: string): Aggregator {
  switch (name) {
    case 'COUNT':
      return new Count();
    case 'SUM':
      return new Sum(isExactType(argType), null);
    case 'AVG':
      return new Sum(isExactType(argType), isExactType(argType) ? Math.min(30, (argType.kind === 'decimal' ? argType.scale : 0) + 4) : 0);
    case 'MIN':
      return new Extreme(false, typeCollation(argType));
    case 'MAX':
      return new Extreme(true, typeCollation(argType));
    case 'GROUP_CONCAT':
      return new GroupConcat(separator);
    case 'BIT_AND':
    case 'BIT_OR':
    case 'BIT_XOR':
      return new Bits(name);
    case 'JSON_ARRAYAGG':
      return jsonArrayAgg(argType);
    case 'JSON_OBJECTAGG':
      return jsonObjectAgg();
  }
}

/** An accumulator for one group. `argType` is the argument's type (anything for COUNT(*)). */
export function createAggregator(name: AggName, distinct: boolean, argType: ColumnType, separator = ','): Aggregator {
  const agg = base(name, argType, separator);
  return distinct ? new Distinct(agg, typeCollation(argType)) : agg;
}
