/**
 * Optimizer hints: MySQL reads `/*+ ... *\/` only right after the first keyword of SELECT,
 * INSERT, REPLACE, UPDATE and DELETE. The lexer drops comments (and the statement cache shares
 * one AST between texts that differ only in comments), so the session reads the hints from the
 * text of each statement here; only the statement's first few characters are looked at.
 * Supported: MAX_EXECUTION_TIME(N) (milliseconds); other hints are ignored, as MySQL ignores
 * hints it cannot apply.
 */

export interface StatementHints {
  /** Upper-cased first keyword, e.g. 'SELECT'; '' when the text does not start with a word. */
  readonly keyword: string;
  /** MAX_EXECUTION_TIME(N): N milliseconds (0 = no limit). */
  readonly maxExecutionTime?: number;
}

const HINTED = new Set(['SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE']);
const MAX_EXECUTION_TIME = /(?:^|[\s,])MAX_EXECUTION_TIME\s*\(\s*(\d+)\s*\)/i;

export function statementHints(sql: string): StatementHints {
  let i = skipTrivia(sql, 0);
  const start = i;
  while (i < sql.length && isWordChar(sql.charCodeAt(i))) i++;
  const keyword = sql.slice(start, i).toUpperCase();
  if (!HINTED.has(keyword)) return { keyword };
  while (i < sql.length && isSpace(sql.charCodeAt(i))) i++;
  if (!sql.startsWith('/*+', i)) return { keyword };
  const end = sql.indexOf('*/', i + 3);
  if (end < 0) return { keyword };
  const m = MAX_EXECUTION_TIME.exec(sql.slice(i + 3, end));
  if (m === null) return { keyword };
  return { keyword, maxExecutionTime: Math.min(Number(m[1]), 2 ** 32 - 1) };
}

/** Skips whitespace and comments that are not hints (`-- `, `#`, `/* *\/`). */
function skipTrivia(sql: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < sql.length && isSpace(sql.charCodeAt(i))) i++;
    if (sql.startsWith('#', i) || (sql.startsWith('--', i) && (i + 2 >= sql.length || sql.charCodeAt(i + 2) <= 32))) {
      const nl = sql.indexOf('\n', i);
      if (nl < 0) return sql.length;
      i = nl + 1;
    } else if (sql.startsWith('/*', i) && !sql.startsWith('/*!', i) && !sql.startsWith('/*+', i)) {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) return sql.length;
      i = end + 2;
    } else {
      return i;
    }
  }
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function isWordChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
