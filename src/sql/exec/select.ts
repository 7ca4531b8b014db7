/**
 * Compiled SELECT. `SELECT cols FROM t WHERE pk = ?` (projection of plain columns over an
 * int-handle PointGet) runs as one fused step: evaluate the param, encode the key, one
 * txn.get, decode only the selected columns, build the one row.
 */
import type { Schema } from '../../catalog/index.js';
import { decodeRow, type Handle } from '../../codec/index.js';
import type { ColumnType, Value } from '../../types/index.js';
import { buildSelect, type PlanNode } from '../plan/index.js';
import type { SelectStmt } from '../parse/index.js';
import type { ExecResult, ResultColumn, RowSink } from '../../types/index.js';
import type { CompiledStatement, ExecContext } from './context.js';
import { buildExecutor } from './build.js';
import { drain, type Executor, type Row } from './executor.js';
import { resultColumns } from './result-columns.js';
import { PointKeyer } from './point-key.js';
import { EMPTY, UNUSABLE } from './range-values.js';
import { RowDecoder } from './row-decoder.js';

export function compileSelect(stmt: SelectStmt, schema: Schema, currentDb: string | null): CompiledStatement {
  const plan = buildSelect(stmt, schema, currentDb);
  return selectStatement(plan, schema.version, stmt.lock === undefined);
}

export function selectStatement(plan: PlanNode, schemaVersion: bigint, readOnly: boolean): CompiledStatement {
  const columns = resultColumns(plan.schema);
  const factory = buildExecutor(plan);
  const fast = fastPointSelect(plan, columns);
  const general = async (ctx: ExecContext): Promise<ExecResult> => {
    if (ctx.rowSink === undefined) return { kind: 'rows', columns, rows: await drain(factory(ctx, Infinity)), warnings: 0 };
    return streamRows(factory(ctx, Infinity), columns, ctx.rowSink);
  };
  return { columns, schemaVersion, readOnly, plan, run: fast ?? general };
}

type Run = (ctx: ExecContext) => Promise<ExecResult>;

/** Results up to this many rows are returned whole; larger ones are streamed to the sink. */
export const STREAM_AFTER_ROWS = 8192;

/**
 * Collects rows until there are more than STREAM_AFTER_ROWS, then hands them and every later
 * batch to `sink`, so memory stays bounded by a few batches whatever the result size.
 */
async function streamRows(ex: Executor, columns: readonly ResultColumn[], sink: RowSink): Promise<ExecResult> {
  let held: Row[] = [];
  let sent = -1;
  for (let batch = await ex.next(); batch !== null; batch = await ex.next()) {
    if (sent >= 0) {
      await sink.rows(batch);
      sent += batch.length;
      continue;
    }
    for (const r of batch) held.push(r);
    if (held.length > STREAM_AFTER_ROWS) {
      await sink.begin(columns);
      await sink.rows(held);
      sent = held.length;
      held = [];
    }
  }
  if (sent < 0) return { kind: 'rows', columns, rows: held, warnings: 0 };
  return { kind: 'rows', columns, rows: [], streamed: sent, warnings: 0 };
}

function fastPointSelect(plan: PlanNode, columns: readonly ResultColumn[]): Run | null {
  if (plan.kind !== 'projection' || plan.child.kind !== 'pointGet') return null;
  const pg = plan.child;
  if (pg.index !== null || pg.table.handleKind !== 'int' || !pg.table.pkIsHandle || pg.lock) return null;
  const offsets: number[] = [];
  for (const e of plan.exprs) {
    if (e.kind !== 'column') return null;
    offsets.push(pg.schema.indexOf(e));
  }
  const table = pg.table;
  const keyer = new PointKeyer(table, null);
  const evals = keyer.compile(pg.values);
  const pkOffset = table.indexes.find((i) => i.primary)?.columns[0]?.offset ?? -1;
  const stored = offsets.filter((o) => o !== pkOffset);
  const simple = stored.length === offsets.length;
  const decodeCols: ReadonlyArray<{ id: number; type: ColumnType }> = offsets.map((o) => {
    const c = table.columns[o];
    return { id: c?.id ?? -1, type: (c?.type ?? null) as ColumnType };
  });
  const decoder = new RowDecoder(table, offsets);
  const n = offsets.length;
  const empty: ExecResult = { kind: 'rows', columns, rows: [], warnings: 0 };
  const result = (handle: Handle, value: Uint8Array | undefined): ExecResult => {
    if (value === undefined) return empty;
    let row: Row;
    const vals = simple ? decodeRow(value, decodeCols) : null;
    if (vals !== null && !vals.includes(undefined)) row = vals as Value[];
    else {
      const full = decoder.decode(handle, value);
      row = new Array<Value>(n);
      for (let i = 0; i < n; i++) row[i] = full[offsets[i] as number] ?? null;
    }
    return { kind: 'rows', columns, rows: [row], warnings: 0 };
  };
  return (ctx) => {
    try {
      const k = keyer.key(evals, ctx);
      if (k === EMPTY) return Promise.resolve(empty);
      if (k === UNUSABLE || k.kind !== 'record') throw new Error('point key of an int handle is always usable');
      const handle = k.handle;
      // The embedded store answers without I/O: one resolved promise instead of a chain of them.
      const now = ctx.txn.getNow(k.key);
      if (now !== null) return Promise.resolve(result(handle, now));
      return ctx.txn.get(k.key).then((value) => result(handle, value));
    } catch (err) {
      return Promise.reject(err);
    }
  };
}
