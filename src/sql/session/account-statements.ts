/** CREATE / ALTER / DROP USER, GRANT, REVOKE, SET PASSWORD. Placeholder until implemented. */
import { SqlError } from '../../errors/index.js';
import type { AccountStatement } from '../parse/index.js';
import type { ExecResult } from './types.js';

export async function runAccount(stmt: AccountStatement): Promise<ExecResult> {
  throw SqlError.of('ER_NOT_SUPPORTED_YET', stmt.what);
}
