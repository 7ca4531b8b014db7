/**
 * One window function over one partition: ranking functions from the peer groups, LAG/LEAD by
 * row offset within the partition, FIRST_VALUE/LAST_VALUE/NTH_VALUE and aggregates over each
 * row's frame. Aggregates add rows incrementally while the frame only grows at its end
 * (the default frames, UNBOUNDED PRECEDING), and restart otherwise.
 */
import { castValue, compileExpr, createAggregator, removableAggregator, type Aggregator, type Evaluator, type RemovableAggregator } from '../expr/index.js';
import { EMPTY_SCHEMA, type RowSchema, type WindowFunc } from '../plan/index.js';
import type { WindowAggName } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { Decimal, type ColumnType, type Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { compileFrame, type FrameOf } from './window-frame.js';
import type { Partition } from './window-partition.js';

/** The function's value for every row of a partition, in partition order. */
export type PartitionEval = (p: Partition) => Value[];
/** Per execution: constant arguments (offsets, bucket counts) are evaluated and checked. */
export type WindowFuncFactory = (ctx: ExecContext) => PartitionEval;

export function compileWindowFunc(f: WindowFunc, schema: RowSchema, desc: boolean): WindowFuncFactory {
  const args = f.args.map((a) => compileExpr(a, schema, 'field list'));
  switch (f.name) {
    case 'ROW_NUMBER':
    case 'RANK':
    case 'DENSE_RANK':
    case 'PERCENT_RANK':
    case 'CUME_DIST': {
      const rank = rankingFunc(f.name);
      return () => rank;
    }
    case 'NTILE': {
      const n = constArg(f, 0);
      return (ctx) => ntile(positive(n(ctx), f.name));
    }
    case 'LAG':
    case 'LEAD':
      return lagLead(f, args);
    case 'FIRST_VALUE':
    case 'LAST_VALUE':
    case 'NTH_VALUE':
      return frameValue(f, args[0] as Evaluator, compileFrame(f.frame, f.windowName, desc));
    default:
      return aggregate(f.name, f.argType, args[0] ?? null, compileFrame(f.frame, f.windowName, desc));
  }
}

function constArg(f: WindowFunc, i: number): (ctx: ExecContext) => Value {
  const arg = f.args[i];
  if (arg === undefined) return () => null;
  const ev = compileExpr(arg, EMPTY_SCHEMA, 'field list');
  return (ctx) => ev([], ctx);
}

/** A constant integer argument (a `?` may arrive as a double or a string). */
function integerOf(v: Value, name: string, min: bigint): bigint {
  let n: bigint | null = null;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
  else if (v instanceof Decimal && v.isInteger()) n = BigInt(v.toFixed(0));
  else if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) n = BigInt(v.trim());
  if (n === null || n < min) throw SqlError.of('ER_WRONG_ARGUMENTS', name.toLowerCase());
  return n;
}

function positive(v: Value, name: string): number {
  return Number(integerOf(v, name, 1n));
}

function rankingFunc(name: 'ROW_NUMBER' | 'RANK' | 'DENSE_RANK' | 'PERCENT_RANK' | 'CUME_DIST'): PartitionEval {
  return (p) => {
    const n = p.rows.length;
    const out = new Array<Value>(n);
    let dense = 0;
    for (let k = 0; k < n; k++) {
      const start = p.peerStart[k] as number;
      if (start === k) dense++;
      switch (name) {
        case 'ROW_NUMBER':
          out[k] = BigInt(k + 1);
          break;
        case 'RANK':
          out[k] = BigInt(start + 1);
          break;
        case 'DENSE_RANK':
          out[k] = BigInt(dense);
          break;
        case 'PERCENT_RANK':
          out[k] = n > 1 ? start / (n - 1) : 0;
          break;
        case 'CUME_DIST':
          out[k] = (p.peerEnd[k] as number) / n;
          break;
      }
    }
    return out;
  };
}

/** NTILE(buckets): sizes differ by at most one, the larger buckets first. */
function ntile(buckets: number): PartitionEval {
  return (p) => {
    const n = p.rows.length;
    const size = Math.floor(n / buckets);
    const extra = n % buckets;
    const big = extra * (size + 1);
    return p.rows.map((_r, k) => BigInt(k < big ? Math.floor(k / (size + 1)) + 1 : extra + Math.floor((k - big) / size) + 1));
  };
}

function lagLead(f: WindowFunc, args: readonly Evaluator[]): WindowFuncFactory {
  const value = args[0] as Evaluator;
  const offsetOf = f.args.length > 1 ? constArg(f, 1) : () => 1n;
  const dflt = args[2] ?? null;
  const cast = castTo(f.type, f.argType);
  return (ctx) => {
    const off = Number(integerOf(offsetOf(ctx), f.name, 0n)) * (f.name === 'LAG' ? -1 : 1);
    return (p) =>
      p.rows.map((row, k) => {
        const src = p.rows[k + off];
        if (src !== undefined) return cast(value(src, ctx), ctx);
        const d = dflt === null ? null : dflt(row, ctx);
        return d === null ? null : castValue(d, f.type, ctx);
      });
  };
}

/** A cast to the merged result type, when it differs from the argument's. */
function castTo(type: ColumnType, argType: ColumnType): (v: Value, ctx: ExecContext) => Value {
  if (type.kind === argType.kind && type.scale === argType.scale) return (v) => v;
  return (v, ctx) => (v === null ? null : castValue(v, type, ctx));
}

function frameValue(f: WindowFunc, value: Evaluator, frameOf: (ctx: ExecContext) => FrameOf): WindowFuncFactory {
  const nth = f.name === 'NTH_VALUE' ? constArg(f, 1) : null;
  return (ctx) => {
    const n = nth === null ? 1 : positive(nth(ctx), f.name);
    const frame = frameOf(ctx);
    return (p) =>
      p.rows.map((_row, k) => {
        const [s, e] = frame(p, k);
        if (s >= e) return null;
        const at = f.name === 'LAST_VALUE' ? e - 1 : s + n - 1;
        const src = at < e ? p.rows[at] : undefined;
        return src === undefined ? null : value(src, ctx);
      });
  };
}

function aggregate(name: WindowAggName, argType: ColumnType, arg: Evaluator | null, frameOf: (ctx: ExecContext) => FrameOf): WindowFuncFactory {
  const removable = removableAggregator(name, argType);
  const make = removable ?? ((): Aggregator => createAggregator(name, false, argType));
  return (ctx) => {
    const frame = frameOf(ctx);
    return (p) => {
      const values = p.rows.map((row) => (arg === null ? 1n : arg(row, ctx)));
      let agg = make();
      let from = 0;
      let to = 0;
      return p.rows.map((_row, k) => {
        const [s, e] = frame(p, k);
        if (s === from && e >= to) {
          // the frame grows at its end: keep accumulating
        } else if (removable !== null && s > from && s <= to && e >= to) {
          for (; from < s; from++) (agg as RemovableAggregator).remove(values[from] as Value);
        } else {
          agg = make();
          from = s;
          to = s;
        }
        for (; to < e; to++) agg.add(values[to] as Value);
        return agg.result();
      });
    };
  };
}
