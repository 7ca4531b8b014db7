/**
 * The value of IN / NOT IN / ANY / ALL over a subquery's rows with MySQL's NULL rules:
 * `x IN (empty)` is FALSE even for a NULL x; otherwise no match with a NULL on either side is
 * NULL. `= ANY` over one column of numbers or strings probes a hash set.
 */
import { holds, valueComparator } from '../expr/index.js';
import { BINARY_COLLATION, type Collation, type Value } from '../../types/index.js';
import { Decimal } from '../../types/index.js';
import type { Row } from './executor.js';
import { valueKey } from './value-key.js';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

type ValueClass = 'n' | 's' | 'x';

function classOf(v: Value): ValueClass {
  if (typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal) return 'n';
  if (typeof v === 'string') return 's';
  return 'x';
}

/** The rows a subquery returned, with a hash index for one-column equality probes. */
export class SubqueryRows {
  private keys: Set<string> | null = null;
  private cls: ValueClass | null = null;
  private hasNull = false;

  private keyColl(): Collation | undefined {
    const c = this.colls[0];
    return c === undefined || c.binary ? undefined : c;
  }

  /** `colls[i]`: the collation strings of column i compare under (binary when absent). */
  constructor(
    readonly rows: readonly Row[],
    private readonly colls: readonly Collation[] = [],
  ) {
    if (rows.length === 0 || (rows[0] as Row).length !== 1) return;
    const keys = new Set<string>();
    let cls: ValueClass | null = null;
    for (const r of rows) {
      const v = r[0] ?? null;
      if (v === null) {
        this.hasNull = true;
        continue;
      }
      const c = classOf(v);
      if (c === 'x' || (cls !== null && c !== cls)) return;
      cls = c;
      keys.add(valueKey(v, this.keyColl()));
    }
    this.keys = keys;
    this.cls = cls;
  }

  /** `probe op ANY (rows)` (all false) or `probe op ALL (rows)`: 1n / 0n / null. */
  quantified(probe: readonly Value[], op: CompareOp, all: boolean): Value {
    if (this.rows.length === 0) return all ? 1n : 0n;
    if (op === '=' && !all && this.keys !== null && probe.length === 1) {
      const v = probe[0] ?? null;
      if (v === null) return null;
      if (this.cls === null || classOf(v) === this.cls) {
        if (this.keys.has(valueKey(v, this.keyColl()))) return 1n;
        return this.hasNull ? null : 0n;
      }
    }
    let sawNull = false;
    for (const r of this.rows) {
      const c = rowCompare(probe, r, op, this.colls);
      if (c === null) sawNull = true;
      else if (all && !c) return 0n;
      else if (!all && c) return 1n;
    }
    if (sawNull) return null;
    return all ? 1n : 0n;
  }
}

/** One-column comparison, or `=` / `<>` of whole rows (NULL when undecided). */
function rowCompare(probe: readonly Value[], row: Row, op: CompareOp, colls: readonly Collation[]): boolean | null {
  const compareValues = (a: Value, b: Value, i: number): number | null => valueComparator(colls[i] ?? BINARY_COLLATION)(a, b);
  if (probe.length === 1) {
    const c = compareValues(probe[0] ?? null, row[0] ?? null, 0);
    return c === null ? null : holds(op, c);
  }
  let unknown = false;
  for (let i = 0; i < probe.length; i++) {
    const c = compareValues(probe[i] ?? null, row[i] ?? null, i);
    if (c === null) unknown = true;
    else if (c !== 0) return op === '<>';
  }
  if (unknown) return null;
  return op === '=';
}
