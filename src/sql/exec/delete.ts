/** DELETE: reads the matching rows (ORDER BY / LIMIT applied), deletes each record and all its index entries. */
import type { Schema } from '../../catalog/index.js';
import { buildDmlSource } from '../plan/index.js';
import type { DeleteStmt } from '../parse/index.js';
import type { ExecResult } from '../../types/index.js';
import type { CompiledStatement, ExecContext } from './context.js';
import { buildExecutor } from './build.js';
import { drain } from './executor.js';
import { handleOf } from './row-decoder.js';
import { TableWriter } from './table-writer.js';
import { RowRules } from './row-rules.js';
import { compileRowFilter } from './row-subqueries.js';

export function compileDelete(stmt: DeleteStmt, schema: Schema, currentDb: string | null): CompiledStatement {
  const src = buildDmlSource(stmt, schema, currentDb);
  const table = src.table;
  const factory = buildExecutor(src.source);
  const filter = compileRowFilter(src.filter);
  const writer = new TableWriter(table);
  const rules = RowRules.of(table, schema);
  const n = table.columns.length;
  const run = async (ctx: ExecContext): Promise<ExecResult> => {
    writer.lockTable(ctx);
    const read = await drain(factory(ctx, Infinity));
    const rows = filter === null ? read : await filter(read, ctx);
    for (const row of rows) {
      const old = row.slice(0, n);
      await rules?.delete(ctx, old);
      writer.delete(ctx.txn, old, handleOf(table, row));
    }
    return { kind: 'ok', affectedRows: BigInt(rows.length), insertId: 0n, info: '', warnings: 0 };
  };
  return { columns: [], schemaVersion: schema.version, readOnly: false, plan: { name: 'Delete', source: src.source }, run };
}
