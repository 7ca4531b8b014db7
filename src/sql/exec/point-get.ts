/**
 * PointGet: one txn.get of the record key (by handle), or index get -> handle -> record get.
 * BatchPointGet: one batchGet of every key (index lookups: a second batchGet of the records).
 * A key value whose comparison the key order cannot express falls back to a full scan.
 */
import { decodeIndexValue, recordKey, type Handle } from '../../codec/index.js';
import type { PlanNode } from '../plan/index.js';
import { compareBytes } from '../../util/index.js';
import type { ExecContext } from './context.js';
import { fromRows, type ExecFactory, type Row } from './executor.js';
import { EMPTY, UNUSABLE } from './range-values.js';
import { PointKeyer, type PointKey } from './point-key.js';
import { RowDecoder } from './row-decoder.js';
import { tableScanFactory } from './table-scan.js';

type PointGetNode = Extract<PlanNode, { kind: 'pointGet' }>;
type BatchPointGetNode = Extract<PlanNode, { kind: 'batchPointGet' }>;

export function pointGetFactory(node: PointGetNode): ExecFactory {
  const keyer = new PointKeyer(node.table, node.index);
  const evals = keyer.compile(node.values);
  const decoder = new RowDecoder(node.table, node.needed);
  const fallback = tableScanFactory({ ...node, kind: 'tableScan', ranges: null, desc: false });
  return (ctx, want) => {
    const k = keyer.key(evals, ctx);
    if (k === UNUSABLE) return fallback(ctx, want);
    let done = false;
    return {
      next: async () => {
        if (done) return null;
        done = true;
        if (k === EMPTY) return null;
        const row = await readPoint(ctx, node.table.id, k, decoder, node.lock);
        return row === null ? null : [row];
      },
    };
  };
}

/** Reads the row a point key names, or null. */
export async function readPoint(ctx: ExecContext, tableId: number, k: PointKey, decoder: RowDecoder, lock: boolean): Promise<Row | null> {
  let key = k.key;
  let handle: Handle;
  if (k.kind === 'index') {
    const iv = await ctx.txn.get(k.key);
    if (iv === undefined) return null;
    const h = decodeIndexValue(iv);
    if (h === null) return null;
    handle = h;
    key = recordKey(tableId, h);
  } else handle = k.handle;
  if (lock) ctx.txn.lockKeys([key]);
  const value = await ctx.txn.get(key);
  return value === undefined ? null : decoder.decode(handle, value);
}

export function batchPointGetFactory(node: BatchPointGetNode): ExecFactory {
  const keyer = new PointKeyer(node.table, node.index);
  const evals = node.keys.map((k) => keyer.compile(k));
  const decoder = new RowDecoder(node.table, node.needed);
  const fallback = tableScanFactory({ ...node, kind: 'tableScan', ranges: null, desc: false });
  return (ctx, want) => {
    const keys: PointKey[] = [];
    for (const e of evals) {
      const k = keyer.key(e, ctx);
      if (k === UNUSABLE) return fallback(ctx, want);
      if (k !== EMPTY) keys.push(k);
    }
    let done = false;
    return {
      next: async () => {
        if (done) return null;
        done = true;
        const rows = await readBatch(ctx, node.table.id, dedupeKeys(keys), decoder, node.lock);
        return fromRows(rows).next();
      },
    };
  };
}

function dedupeKeys(keys: PointKey[]): PointKey[] {
  keys.sort((a, b) => compareBytes(a.key, b.key));
  return keys.filter((k, i) => i === 0 || compareBytes(k.key, (keys[i - 1] as PointKey).key) !== 0);
}

async function readBatch(ctx: ExecContext, tableId: number, keys: PointKey[], decoder: RowDecoder, lock: boolean): Promise<Row[]> {
  if (keys.length === 0) return [];
  let handles: Handle[];
  let recordKeys: Uint8Array[];
  if (keys[0]?.kind === 'index') {
    const ivs = await ctx.txn.batchGet(keys.map((k) => k.key));
    handles = [];
    for (const iv of ivs) {
      const h = iv === undefined ? null : decodeIndexValue(iv);
      if (h !== null) handles.push(h);
    }
    recordKeys = handles.map((h) => recordKey(tableId, h));
  } else {
    handles = keys.map((k) => (k.kind === 'record' ? k.handle : ({ kind: 'int', value: 0n } as const)));
    recordKeys = keys.map((k) => k.key);
  }
  if (lock) ctx.txn.lockKeys(recordKeys);
  const values = await ctx.txn.batchGet(recordKeys);
  const rows: Row[] = [];
  values.forEach((v, i) => {
    if (v !== undefined) rows.push(decoder.decode(handles[i] as Handle, v));
  });
  return rows;
}
