/**
 * Window COUNT / SUM / AVG over exact arguments that can also take rows out, so a frame that
 * slides (ROWS n PRECEDING, RANGE n PRECEDING ...) costs one add and one remove per row instead
 * of a recomputation. Results are those of aggregate.ts (exact sums as DECIMAL, AVG rounded
 * half up to scale + 4). Approximate (DOUBLE) sums are recomputed instead: removal would drift.
 */
import type { WindowAggName } from '../parse/ast.js';
import { Decimal, isIntegerType, type ColumnType, type Value } from '../../types/index.js';
import type { Aggregator } from './aggregate.js';
import { toDecimal } from './to-number.js';

export interface RemovableAggregator extends Aggregator {
  remove(v: Value): void;
}

/** A factory of removable accumulators, or null when `name` over `argType` has none. */
export function removableAggregator(name: WindowAggName, argType: ColumnType): (() => RemovableAggregator) | null {
  if (name === 'COUNT') return () => new RemovableCount();
  const exact = isIntegerType(argType) || argType.kind === 'decimal';
  if (!exact || (name !== 'SUM' && name !== 'AVG')) return null;
  const avgScale = name === 'AVG' ? Math.min(30, (argType.kind === 'decimal' ? argType.scale : 0) + 4) : null;
  return () => new RemovableSum(avgScale);
}

class RemovableCount implements RemovableAggregator {
  #n = 0n;
  add(v: Value): void {
    if (v !== null) this.#n++;
  }
  remove(v: Value): void {
    if (v !== null) this.#n--;
  }
  result(): Value {
    return this.#n;
  }
}

class RemovableSum implements RemovableAggregator {
  #int = 0n;
  #dec: Decimal | null = null;
  #count = 0;
  constructor(private readonly avgScale: number | null) {}
  add(v: Value): void {
    this.#apply(v, 1);
  }
  remove(v: Value): void {
    this.#apply(v, -1);
  }
  #apply(v: Value, sign: 1 | -1): void {
    if (v === null) return;
    this.#count += sign;
    if (typeof v === 'bigint') {
      this.#int += sign > 0 ? v : -v;
      return;
    }
    const d = toDecimal(v) as Decimal;
    const base = this.#dec ?? new Decimal(0);
    this.#dec = sign > 0 ? base.plus(d) : base.minus(d);
  }
  result(): Value {
    if (this.#count === 0) return null;
    const base = new Decimal(this.#int.toString());
    const total = this.#dec === null ? base : base.plus(this.#dec);
    if (this.avgScale === null) return total;
    return total.dividedBy(this.#count).toDecimalPlaces(this.avgScale, Decimal.ROUND_HALF_UP);
  }
}
