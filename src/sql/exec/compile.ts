/** compileStatement: plans a data statement once; the result runs many times with new params. */
import type { Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { Statement } from '../parse/index.js';
import type { CompiledStatement } from './context.js';
import { compileSelect } from './select.js';
import { compileInsert } from './insert.js';
import { compileUpdate } from './update.js';
import { compileDelete } from './delete.js';
import { compileExplain } from './explain.js';

/** Plans SELECT / INSERT / REPLACE / UPDATE / DELETE / EXPLAIN. Throws SqlError (1146, 1054, 1046 ...). */
export function compileStatement(stmt: Statement, schema: Schema, currentDb: string | null): CompiledStatement {
  switch (stmt.kind) {
    case 'select':
      return compileSelect(stmt, schema, currentDb);
    case 'insert':
      return compileInsert(stmt, schema, currentDb);
    case 'update':
      return compileUpdate(stmt, schema, currentDb);
    case 'delete':
      return compileDelete(stmt, schema, currentDb);
    case 'explain':
      return compileExplain(stmt.stmt, stmt.analyze, schema, currentDb);
    default:
      throw SqlError.of('ER_NOT_SUPPORTED_YET', `${stmt.kind} in the executor`);
  }
}
