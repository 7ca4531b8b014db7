/**
 * UPDATE: the matching rows are read first (row source as for SELECT, ORDER BY / LIMIT
 * applied), then each is updated: SET assignments left to right against the progressively
 * updated row, coerced; ON UPDATE CURRENT_TIMESTAMP columns refreshed when anything changed;
 * unchanged rows skipped; index entries maintained (TableWriter.update).
 * OK: affected = changed rows (matched with CLIENT_FOUND_ROWS),
 * info `Rows matched: M  Changed: C  Warnings: W`.
 */
import { columnDefaultValue, findColumn, rowHandle, type ColumnInfo, type Schema } from '../../catalog/index.js';
import { isSqlError, SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { coerceToColumn, compileExpr, type Evaluator } from '../expr/index.js';
import { buildDmlSource, planRowSubqueries, tableSchema } from '../plan/index.js';
import type { UpdateStmt } from '../parse/index.js';
import type { ExecResult } from '../../types/index.js';
import type { CompiledStatement, ExecContext } from './context.js';
import { buildExecutor } from './build.js';
import { drain } from './executor.js';
import { CountingContext } from './counting-context.js';
import { handleOf } from './row-decoder.js';
import { nowForColumn, nullIntoNotNull, sameValue } from './column-values.js';
import { TableWriter } from './table-writer.js';
import { passesRules, RowRules } from './row-rules.js';
import { compileRowFilter, runnerFactory } from './row-subqueries.js';

interface SetItem {
  readonly col: ColumnInfo;
  /** null = DEFAULT. */
  readonly eval: Evaluator | null;
}

export function compileUpdate(stmt: UpdateStmt, schema: Schema, currentDb: string | null): CompiledStatement {
  const src = buildDmlSource(stmt, schema, currentDb);
  const table = src.table;
  const scope = tableSchema(table, src.alias);
  const setSubs = planRowSubqueries(stmt.set.map((a) => a.value), scope, schema, currentDb, stmt, table);
  const sets: SetItem[] = stmt.set.map((a, i) => {
    if (a.table !== undefined && a.table !== src.alias) throw SqlError.of('ER_BAD_FIELD_ERROR', `${a.table}.${a.column}`, 'field list');
    const col = findColumn(table, a.column);
    if (col === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', a.column, 'field list');
    const isDefault = a.value.kind === 'default' && a.value.column === undefined;
    return { col, eval: isDefault ? null : compileExpr(setSubs?.exprs[i] ?? a.value, setSubs?.schema ?? scope, 'field list') };
  });
  const explicit = new Set(sets.map((s) => s.col.offset));
  const onUpdate = table.columns.filter((c) => c.onUpdateNow && !explicit.has(c.offset));
  const factory = buildExecutor(src.source);
  const filter = compileRowFilter(src.filter);
  const setRunner = setSubs === null ? undefined : runnerFactory(setSubs);
  const writer = new TableWriter(table);
  const rules = RowRules.of(table, schema);
  const hiddenHandle = table.handleKind === 'int' && !table.pkIsHandle;
  const n = table.columns.length;
  const run = async (outer: ExecContext): Promise<ExecResult> => {
    const ctx = new CountingContext(outer);
    writer.lockTable(ctx);
    const read = await drain(factory(ctx, Infinity));
    const rows = filter === null ? read : await filter(read, ctx);
    const runner = setRunner?.(ctx);
    let changed = 0;
    for (const row of rows) {
      const old = row.slice(0, n);
      const next = old.slice();
      const hidden = runner === undefined ? [] : (await runner.extend(old)).slice(n);
      for (const s of sets) next[s.col.offset] = assign(s, hidden.length === 0 ? next : [...next, ...hidden], stmt.ignore, ctx, table.name);
      if (next.every((v, i) => sameValue(v, old[i] ?? null))) continue;
      for (const c of onUpdate) next[c.offset] = nowForColumn(c, ctx);
      const handle = handleOf(table, row);
      const newHandle = hiddenHandle ? handle : rowHandle(table, next);
      if (rules !== null && !(await passesRules(ctx, stmt.ignore, () => rules.update(ctx, old, next)))) continue;
      try {
        await writer.update(ctx.txn, old, handle, next, newHandle);
      } catch (e) {
        if (!stmt.ignore || !isSqlError(e) || e.errno !== 1062) throw e;
        ctx.warn(e.errno, e.message);
        continue;
      }
      changed++;
    }
    const matched = rows.length;
    ctx.setFoundRows(BigInt(matched));
    const info = `Rows matched: ${matched}  Changed: ${changed}  Warnings: ${ctx.warnings}`;
    const affected = BigInt(ctx.foundRowsFlag ? matched : changed);
    return { kind: 'ok', affectedRows: affected, insertId: 0n, info, warnings: ctx.warnings };
  };
  return { columns: [], schemaVersion: schema.version, readOnly: false, plan: { name: 'Update', source: src.source }, run };
}

function assign(s: SetItem, row: Value[], ignore: boolean, ctx: ExecContext, tableName: string): Value {
  const v = s.eval === null ? columnDefaultValue(s.col, ctx.now()) : s.eval(row, ctx);
  if (v === null) return s.col.notNull ? nullIntoNotNull(s.col, ignore || !ctx.strict, ctx) : null;
  return coerceToColumn(v, s.col, 1, ctx, tableName);
}
