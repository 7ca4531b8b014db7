/**
 * Privilege checks run before every statement. (Placeholder: every account may do everything
 * until accounts and grants are stored in the catalog.)
 */
import type { Statement } from '../parse/index.js';

export interface Requester {
  readonly user: string;
  readonly host: string;
  readonly currentDatabase: string | null;
}

/** Throws SqlError 1142 / 1044 / 1227 when `who` may not run `stmt`. */
export async function authorize(_who: Requester, _stmt: Statement): Promise<void> {
  return undefined;
}
