/**
 * ON DUPLICATE KEY UPDATE: assignments evaluated left to right against the existing row, with
 * VALUES(col) reading the row that would have been inserted.
 */
import { findColumn, rowHandle, type ColumnInfo, type TableInfo } from '../../catalog/index.js';
import type { Handle } from '../../codec/index.js';
import type { Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { coerceToColumn, compileExpr } from '../expr/index.js';
import { mapExpr, tableSchema, VALUES_TABLE, type RowSchema } from '../plan/index.js';
import type { Assignment } from '../parse/index.js';
import type { ExecContext } from './context.js';
import { nowForColumn, nullIntoNotNull, sameValue } from './column-values.js';
import type { TableWriter } from './table-writer.js';
import type { RowRules } from './row-rules.js';

export interface OnDuplicate {
  /** Updates the existing row; false when nothing changed. */
  apply(ctx: ExecContext, writer: TableWriter, old: Value[], handle: Handle, inserted: readonly Value[], rules?: RowRules | null): Promise<boolean>;
}

export function compileOnDuplicate(table: TableInfo, set: readonly Assignment[]): OnDuplicate {
  const scope: RowSchema = tableSchema(table, table.name).concat(tableSchema(table, VALUES_TABLE));
  const assigns = set.map((a) => {
    const col = findColumn(table, a.column);
    if (col === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', a.column, 'field list');
    const expr = mapExpr(a.value, (x) => (x.kind === 'valuesRef' ? { kind: 'column', table: VALUES_TABLE, name: x.column } : undefined));
    return { col, eval: compileExpr(expr, scope, 'field list') };
  });
  const n = table.columns.length;
  const explicit = new Set(assigns.map((a) => a.col.offset));
  const onUpdate = table.columns.filter((c) => c.onUpdateNow && !explicit.has(c.offset));
  return {
    async apply(ctx, writer, old, handle, inserted, rules) {
      const both: Value[] = [...old.slice(0, n), ...inserted];
      for (const a of assigns) {
        const v = a.eval(both, ctx);
        both[a.col.offset] = v === null ? (a.col.notNull ? nullIntoNotNull(a.col, !ctx.strict, ctx) : null) : coerceToColumn(v, a.col, 1, ctx);
      }
      const next = both.slice(0, n);
      if (next.every((v, i) => sameValue(v, old[i] ?? null))) return false;
      for (const c of onUpdate) next[c.offset] = nowForColumn(c as ColumnInfo, ctx);
      const newHandle = table.handleKind === 'int' && !table.pkIsHandle ? handle : rowHandle(table, next);
      await rules?.update(ctx, old, next);
      await writer.update(ctx.txn, old, handle, next, newHandle);
      return true;
    },
  };
}

