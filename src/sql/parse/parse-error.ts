/** MySQL-style parse errors: 1064 with the near-text (rest of the statement, max 80 chars) and 1-based line. */
import { SqlError } from '../../errors/index.js';

/** ER_PARSE_ERROR at character offset `pos` of `sql` (pos >= sql.length means "at the end"). */
export function parseError(sql: string, pos: number): SqlError {
  const at = Math.max(0, Math.min(pos, sql.length));
  const near = sql.slice(at, at + 80);
  let line = 1;
  for (let i = 0; i < at; i++) if (sql.charCodeAt(i) === 10) line++;
  return SqlError.of('ER_PARSE_ERROR', near, line);
}

export function notSupported(feature: string): SqlError {
  return SqlError.of('ER_NOT_SUPPORTED_YET', feature);
}
