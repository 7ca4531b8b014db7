/** CREATE / ALTER / DROP USER, GRANT, REVOKE, SET PASSWORD (token-level). */
import type { Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { notSupported } from './parse-error.js';

/** True when the cursor (at the statement start) begins an account statement. */
export function isAccountStatement(c: Cursor): boolean {
  const a = c.peek()?.upper;
  const b = c.peek(1)?.upper;
  if (a === 'GRANT' || a === 'REVOKE') return true;
  if ((a === 'CREATE' || a === 'DROP' || a === 'ALTER' || a === 'RENAME') && (b === 'USER' || b === 'ROLE')) return true;
  return a === 'SET' && b === 'PASSWORD';
}

export function parseAccount(c: Cursor): Statement {
  throw notSupported(`${c.peek()?.upper ?? ''} ${c.peek(1)?.upper ?? ''}`.trim());
}
