/** RANGE frame bounds `INTERVAL n unit PRECEDING|FOLLOWING` over a temporal ORDER BY key. */
import { DateTime, type Value } from '../../types/index.js';
import { addInterval, intervalOf, isDateUnit } from './interval.js';

export type KeyShift = (key: Value, sign: 1 | -1) => Value;

/** Moves a key by `amount unit`; null when the amount is NULL, negative or the unit unknown. */
export function intervalShift(amount: Value, unit: string): KeyShift | null {
  const iv = intervalOf(amount, unit);
  if (iv === null || iv.months < 0 || iv.micros < 0n) return null;
  return (key, sign) => {
    if (!(key instanceof DateTime)) return key;
    return addInterval(key, iv, sign, key.kind === 'date' && isDateUnit(unit)) ?? key;
  };
}
