/**
 * The keys a compiled statement will read first, guessed from its plan before its transaction
 * has a snapshot (TxnStore.begin's `prefetch`; on etcd they are read in the request that takes
 * the start revision, one round trip instead of two for a point select or a single-row UPDATE).
 *
 * The guess: the point get (or batch point get) the plan's root reaches through operators that
 * only pass rows on, when each of its key values is a literal or a statement parameter. Nothing
 * is evaluated that could fail or depend on the session: anything else guesses no key. A wrong
 * guess (the schema changed before the snapshot) costs one unused read, never a wrong result:
 * the statement still reads through its snapshot, which holds what the store had at its start.
 */
import type { ExplainTop, PlanNode } from '../plan/index.js';
import type { Expr } from '../parse/index.js';
import type { Value } from '../../types/index.js';
import { PointKeyer } from './point-key.js';
import { EMPTY, UNUSABLE } from './range-values.js';

/** Batch point gets guess at most this many keys. */
const MAX_KEYS = 16;
const PASS_THROUGH = new Set<PlanNode['kind']>(['selection', 'projection', 'limit', 'topN', 'sort', 'distinct', 'hashAgg']);

type PointNode = Extract<PlanNode, { kind: 'pointGet' | 'batchPointGet' }>;

export function prefetchKeys(plan: PlanNode | ExplainTop | undefined, params: readonly Value[]): Uint8Array[] {
  let node = plan === undefined || 'kind' in plan ? plan : plan.source;
  while (node !== undefined && PASS_THROUGH.has(node.kind) && 'child' in node) node = node.child;
  if (node?.kind === 'pointGet') return keysOf(node, [node.values], params);
  if (node?.kind === 'batchPointGet') return keysOf(node, node.keys.slice(0, MAX_KEYS), params);
  return [];
}

function keysOf(node: PointNode, tuples: ReadonlyArray<readonly Expr[]>, params: readonly Value[]): Uint8Array[] {
  const keyer = new PointKeyer(node.table, node.index);
  const keys: Uint8Array[] = [];
  for (const tuple of tuples) {
    const values = constantValues(tuple, params);
    if (values === undefined) return [];
    const k = keyer.keyOf(values);
    if (k !== EMPTY && k !== UNUSABLE) keys.push(k.key);
  }
  return keys;
}

/** The values of literal and parameter expressions; undefined if any is something else. */
function constantValues(exprs: readonly Expr[], params: readonly Value[]): Value[] | undefined {
  const out: Value[] = [];
  for (const e of exprs) {
    if (e.kind === 'literal') out.push(e.value);
    else if (e.kind === 'param' && e.index < params.length) out.push(params[e.index] ?? null);
    else return undefined;
  }
  return out;
}
