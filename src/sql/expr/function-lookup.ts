/** Resolves a function name to its registry entry with MySQL's errors for unknown names and arity. */
import { SqlError } from '../../errors/index.js';
import type { FunctionDef } from './functions/function-def.js';
import { lookupFunction } from './functions/registry.js';

/**
 * The entry for `name` (upper-case) called with `argc` arguments.
 * Unknown: ER_SP_DOES_NOT_EXIST `FUNCTION db.name does not exist` (`name` alone without a db);
 * wrong arity: ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT.
 */
export function checkedFunction(name: string, argc: number, db: string | null | undefined): FunctionDef {
  const def = lookupFunction(name);
  if (def === undefined) {
    const lower = name.toLowerCase();
    throw SqlError.of('ER_SP_DOES_NOT_EXIST', 'FUNCTION', db ? `${db}.${lower}` : lower);
  }
  if (argc < def.min || argc > def.max) throw SqlError.of('ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT', name);
  return def;
}
