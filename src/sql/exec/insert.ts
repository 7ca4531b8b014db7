/**
 * INSERT / INSERT IGNORE / REPLACE / INSERT ... ON DUPLICATE KEY UPDATE [... SELECT].
 * OK packet: affected rows (1 per insert, REPLACE adds the deleted rows, ODKU 2 per updated row,
 * 0 (1 with FOUND_ROWS) per unchanged one), insert id = first generated AUTO_INCREMENT id,
 * info `Records: N  Duplicates: D  Warnings: W` for multi-row statements.
 */
import { rowHandle, type Schema } from '../../catalog/index.js';
import type { Handle } from '../../codec/index.js';
import type { Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { buildSelect, EMPTY_SCHEMA, planRowSubqueries, rejectViewTarget, resolveTable, type PlanNode, type RowSubqueries } from '../plan/index.js';
import type { Expr, InsertStmt } from '../parse/index.js';
import type { ExecResult } from '../../types/index.js';
import type { CompiledStatement, ExecContext } from './context.js';
import { buildExecutor } from './build.js';
import { drain, type ExecFactory } from './executor.js';
import { CountingContext } from './counting-context.js';
import { RowBuilder, compileValues, targetColumns, type NewRows, type ValueSource } from './insert-rows.js';
import { compileOnDuplicate, type OnDuplicate } from './on-duplicate.js';
import { StatementReads, TableWriter } from './table-writer.js';
import { runnerFactory } from './row-subqueries.js';
import { passesRules, RowRules } from './row-rules.js';

type Mode = 'insert' | 'ignore' | 'replace' | 'upsert';

interface Counts {
  affected: bigint;
  duplicates: number;
}

export function compileInsert(stmt: InsertStmt, schema: Schema, currentDb: string | null): CompiledStatement {
  const table = resolveTable(schema, currentDb, stmt.table);
  rejectViewTarget(table, 'INSERT');
  const targets = targetColumns(table, stmt.columns);
  const valueSubs = stmt.select === undefined && !plainValues(stmt) ? planRowSubqueries(stmt.rows.flat(), EMPTY_SCHEMA, schema, currentDb, stmt, table) : null;
  const values = stmt.select === undefined ? compileValues(stmt, targets.length, valueRows(stmt, valueSubs), valueSubs?.schema) : null;
  const valueRunner = valueSubs === null ? null : runnerFactory(valueSubs);
  const select = stmt.select === undefined ? null : compileInsertSelect(stmt, schema, currentDb, targets.length);
  const mode: Mode = stmt.replace ? 'replace' : stmt.onDuplicate.length > 0 ? 'upsert' : stmt.ignore ? 'ignore' : 'insert';
  const upsert = mode === 'upsert' ? compileOnDuplicate(table, stmt.onDuplicate) : null;
  const builder = new RowBuilder(table, targets, stmt.ignore);
  const writer = new TableWriter(table);
  const rules = RowRules.of(table, schema);
  const run = async (outer: ExecContext): Promise<ExecResult> => {
    const ctx = new CountingContext(outer);
    writer.lockTable(ctx);
    const sources: ReadonlyArray<ReadonlyArray<ValueSource | Value>> = values ?? (await drain((select as InsertSelect).factory(ctx, Infinity)));
    const input = valueRunner === null ? [] : await valueRunner(ctx).extend([]);
    const rows = await builder.build(sources, values === null, ctx, input);
    const counts = await writeRows(ctx, writer, rows, mode, upsert, rules);
    if (rows.firstId !== null) ctx.setLastInsertId(rows.firstId);
    const multi = sources.length > 1 || select !== null;
    const info = multi ? `Records: ${sources.length}  Duplicates: ${counts.duplicates}  Warnings: ${ctx.warnings}` : '';
    return { kind: 'ok', affectedRows: counts.affected, insertId: rows.firstId ?? 0n, info, warnings: ctx.warnings };
  };
  const plan = select === null ? { name: 'Insert' as const } : { name: 'Insert' as const, source: select.plan };
  return { columns: [], schemaVersion: schema.version, readOnly: false, plan, run };
}

/** True when every VALUES item is a literal, `?` or DEFAULT (no subquery to plan; bulk loads). */
function plainValues(stmt: InsertStmt): boolean {
  return stmt.rows.every((row) => row.every((e) => e.kind === 'literal' || e.kind === 'param' || (e.kind === 'default' && e.column === undefined)));
}

/** The VALUES rows with subqueries replaced by hidden columns (same shape as stmt.rows). */
function valueRows(stmt: InsertStmt, subs: RowSubqueries | null): ReadonlyArray<readonly Expr[]> {
  if (subs === null) return stmt.rows;
  let i = 0;
  return stmt.rows.map((row) => row.map(() => subs.exprs[i++] as Expr));
}

interface InsertSelect {
  readonly factory: ExecFactory;
  readonly plan: PlanNode;
}

function compileInsertSelect(stmt: InsertStmt, schema: Schema, currentDb: string | null, width: number): InsertSelect {
  const plan = buildSelect(stmt.select as NonNullable<InsertStmt['select']>, schema, currentDb);
  if (plan.schema.width !== width) throw SqlError.of('ER_WRONG_VALUE_COUNT_ON_ROW', 1);
  return { factory: buildExecutor(plan), plan };
}

async function writeRows(
  ctx: CountingContext, writer: TableWriter, rows: NewRows, mode: Mode, upsert: OnDuplicate | null, rules: RowRules | null = null,
): Promise<Counts> {
  const counts: Counts = { affected: 0n, duplicates: 0 };
  const table = writer.table;
  const fastPath = mode === 'insert' || mode === 'ignore';
  const handles = rows.rows.map((row, r) => rowHandle(table, row, rows.rowIds?.[r]));
  const reads = fastPath ? await prefetchConflicts(ctx, writer, rows, handles) : undefined;
  for (let r = 0; r < rows.rows.length; r++) {
    const row = rows.rows[r] as Value[];
    const handle = handles[r] as Handle;
    const checkPk = !(rows.generatedHandle[r] ?? false);
    if (rules !== null && mode !== 'upsert' && !(await passesRules(ctx, mode === 'ignore', () => rules.insert(ctx, row)))) continue;
    if (fastPath && !checkPk && !writer.hasUniqueIndexes) {
      writer.insert(ctx.txn, row, handle, reads, ctx.catalog);
      counts.affected++;
      continue;
    }
    await writeOne(ctx, writer, row, handle, checkPk, mode, upsert, counts, reads, rules);
  }
  return counts;
}

/**
 * INSERT / INSERT IGNORE of several rows: every key the rows' duplicate checks read, fetched
 * in ONE batchGet instead of a get per row and key. These modes only ever insert, and every
 * insert is recorded in the StatementReads, so later rows still see the earlier ones.
 */
async function prefetchConflicts(ctx: CountingContext, writer: TableWriter, rows: NewRows, handles: readonly Handle[]): Promise<StatementReads | undefined> {
  if (rows.rows.length < 2) return undefined;
  const keys: Uint8Array[] = [];
  rows.rows.forEach((row, r) => writer.conflictKeys(row, handles[r] as Handle, !(rows.generatedHandle[r] ?? false), keys));
  if (keys.length === 0) return undefined;
  const reads = new StatementReads(ctx.txn);
  await reads.prefetch(keys);
  return reads;
}

async function writeOne(
  ctx: CountingContext, writer: TableWriter, row: Value[], handle: Handle, checkPk: boolean, mode: Mode, upsert: OnDuplicate | null, counts: Counts,
  reads?: StatementReads,
  rules: RowRules | null = null,
): Promise<void> {
  let conflict = await writer.findConflict(ctx.txn, row, handle, checkPk, reads);
  if (conflict === null) {
    if (rules !== null && mode === 'upsert') await rules.insert(ctx, row);
    writer.insert(ctx.txn, row, handle, reads, checkPk ? undefined : ctx.catalog);
    counts.affected++;
    return;
  }
  counts.duplicates++;
  switch (mode) {
    case 'insert':
      throw conflict.error;
    case 'ignore':
      ctx.warn(conflict.error.errno, conflict.error.message);
      return;
    case 'replace':
      while (conflict !== null) {
        const old = await writer.read(ctx.txn, conflict.handle);
        if (old === null) throw conflict.error;
        await rules?.delete(ctx, old);
        writer.delete(ctx.txn, old, conflict.handle);
        counts.affected++;
        conflict = await writer.findConflict(ctx.txn, row, handle, true);
      }
      writer.insert(ctx.txn, row, handle, undefined, checkPk ? undefined : ctx.catalog);
      counts.affected++;
      return;
    case 'upsert': {
      const old = await writer.read(ctx.txn, conflict.handle);
      if (old === null) throw conflict.error;
      const changed = await (upsert as OnDuplicate).apply(ctx, writer, old, conflict.handle, row, rules);
      counts.affected += changed ? 2n : ctx.foundRowsFlag ? 1n : 0n;
      return;
    }
  }
}

