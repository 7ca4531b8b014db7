/** Select-list expansion (`*`, `t.*`) and alias / position references in GROUP BY and ORDER BY. */
import type { Expr, SelectItem } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { RowSchema } from './row-schema.js';
import { SUBQUERY_TABLE } from './builder-subquery.js';

export interface OutputItem {
  readonly expr: Expr;
  /** Column label the client sees. */
  readonly label: string;
  readonly alias?: string;
}

export function expandItems(items: readonly SelectItem[], schema: RowSchema, hasFrom: boolean): OutputItem[] {
  const out: OutputItem[] = [];
  for (const item of items) {
    if (item.kind === 'expr') {
      const label = item.alias ?? (item.expr.kind === 'column' ? item.expr.name : item.text);
      out.push(item.alias !== undefined ? { expr: item.expr, label, alias: item.alias } : { expr: item.expr, label });
      continue;
    }
    if (!hasFrom) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'SELECT * without tables');
    let any = false;
    for (const c of schema.columns) {
      if (item.table !== undefined && c.table !== item.table) continue;
      if (c.table === SUBQUERY_TABLE) continue; // hidden subquery results
      any = true;
      out.push({ expr: { kind: 'column', db: c.db, table: c.table, name: c.name }, label: c.name });
    }
    if (!any) throw SqlError.of('ER_UNKNOWN_TABLE', item.table ?? '', 'field list');
  }
  return out;
}

/** Position (1-based integer literal) or select alias -> the select item; else undefined. */
export function itemReference(e: Expr, items: readonly OutputItem[], clause: string, aliasFirst: boolean, schema: RowSchema): number | undefined {
  if (e.kind === 'literal' && typeof e.value === 'bigint') {
    const n = Number(e.value);
    if (n < 1 || n > items.length) throw SqlError.of('ER_BAD_FIELD_ERROR', String(e.value), clause);
    return n - 1;
  }
  if (e.kind !== 'column' || e.table !== undefined) return undefined;
  if (!aliasFirst && schema.indexOf(e) >= 0) return undefined;
  const name = e.name.toLowerCase();
  const i = items.findIndex((it) => it.alias !== undefined && it.alias.toLowerCase() === name);
  return i >= 0 ? i : undefined;
}
