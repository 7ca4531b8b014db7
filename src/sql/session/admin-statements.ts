/** ADMIN statements (ADMIN CHECK TABLE). Placeholder until implemented. */
import { SqlError } from '../../errors/index.js';
import type { AdminStatement } from '../parse/index.js';
import type { ExecResult } from './types.js';

export async function runAdmin(stmt: AdminStatement): Promise<ExecResult> {
  throw SqlError.of('ER_NOT_SUPPORTED_YET', `ADMIN ${stmt.op}`);
}
