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

export function compileDelete(stmt: DeleteStmt, schema: Schema, currentDb: string | null): CompiledStatement {
  const src = buildDmlSource(stmt, schema, currentDb);
  const table = src.table;
  const factory = buildExecutor(src.source);
  const writer = new TableWriter(table);
  const n = table.columns.length;
  const run = async (ctx: ExecContext): Promise<ExecResult> => {
    writer.lockTable(ctx);
    const rows = await drain(factory(ctx, Infinity));
    for (const row of rows) writer.delete(ctx.txn, row.slice(0, n), handleOf(table, row));
    return { kind: 'ok', affectedRows: BigInt(rows.length), insertId: 0n, info: '', warnings: 0 };
  };
  return { columns: [], schemaVersion: schema.version, readOnly: false, plan: { name: 'Delete', source: src.source }, run };
}
