/** EXPLAIN <stmt>: the plan tree as rows (computed once, at compile time). */
import type { Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import { buildDmlSource, buildSelect, explainRows, resolveTable, EXPLAIN_COLUMNS, type ExplainTop, type PlanNode } from '../plan/index.js';
import type { Statement } from '../parse/index.js';
import type { CompiledStatement } from './context.js';
import { textColumn } from './result-columns.js';

export function compileExplain(inner: Statement, analyze: boolean, schema: Schema, currentDb: string | null): CompiledStatement {
  if (analyze) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'EXPLAIN ANALYZE');
  const rows = explainRows(planOf(inner, schema, currentDb));
  const columns = EXPLAIN_COLUMNS.map(textColumn);
  const result = { kind: 'rows' as const, columns, rows, warnings: 0 };
  return { columns, schemaVersion: schema.version, readOnly: true, run: () => Promise.resolve(result) };
}

function planOf(stmt: Statement, schema: Schema, currentDb: string | null): PlanNode | ExplainTop {
  switch (stmt.kind) {
    case 'select':
      return buildSelect(stmt, schema, currentDb);
    case 'insert':
      resolveTable(schema, currentDb, stmt.table);
      return stmt.select === undefined ? { name: 'Insert' } : { name: 'Insert', source: buildSelect(stmt.select, schema, currentDb) };
    case 'update':
      return { name: 'Update', source: buildDmlSource(stmt, schema, currentDb).source };
    case 'delete':
      return { name: 'Delete', source: buildDmlSource(stmt, schema, currentDb).source };
    default:
      throw SqlError.of('ER_NOT_SUPPORTED_YET', `EXPLAIN ${stmt.kind}`);
  }
}
