/** A standalone SQL expression from its text (stored CHECK constraint expressions). */
import type { Expr } from './ast.js';
import { tokenize } from './lexer.js';
import { parseExprTokens } from './lib-statement.js';

export function parseExpression(text: string): Expr {
  // A leading word keeps the expression's first token off offset 0 (the rewrite inserts SELECT there).
  const sql = `DO ${text}`;
  const tokens = tokenize(sql);
  return parseExprTokens(sql, tokens, 1, tokens.length);
}

/** Lower-cased names of the columns an expression reads. */
export function exprColumns(expr: Expr): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (o['kind'] === 'column' && typeof o['name'] === 'string') out.add(o['name'].toLowerCase());
    for (const x of Object.values(o)) walk(x);
  };
  walk(expr);
  return [...out];
}
