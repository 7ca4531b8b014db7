/** splitStatements and countPlaceholders, on the lexer's tokens. */
import { tokenize } from './lexer.js';

/** Splits on `;` outside strings, comments and backticks; trimmed; empty statements dropped. */
export function splitStatements(sql: string): string[] {
  const first = sql.indexOf(';');
  if (first < 0 || sql.slice(first + 1).trim() === '') {
    const one = first < 0 ? sql.trim() : sql.slice(0, first).trim();
    if (first >= 0 && one === '') return [];
    if (first < 0 || !/['"`#]|--|\/\*/.test(one)) return one === '' ? [] : [one];
  }
  const tokens = tokenize(sql);
  const out: string[] = [];
  let start = 0;
  let has = false;
  for (const t of tokens) {
    if (t.type !== 'semi') {
      has = true;
      continue;
    }
    if (has) out.push(sql.slice(start, t.start).trim());
    start = t.end;
    has = false;
  }
  if (has) out.push(sql.slice(start).trim());
  return out;
}

/** Number of `?` placeholders outside strings and comments. */
export function countPlaceholders(sql: string): number {
  if (!sql.includes('?')) return 0;
  let n = 0;
  for (const t of tokenize(sql)) if (t.type === 'param') n++;
  return n;
}
