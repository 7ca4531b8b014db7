/** `SHOW ... LIKE 'pattern'` and `SHOW ... WHERE expr` over the rows a SHOW built. */
import type { Value } from '../../types/index.js';
import type { Expr } from '../parse/index.js';
import { compileExpr, truthy, type ColumnBinding, type EvalContext, type Scope } from '../expr/index.js';
import type { ResultColumn } from './types.js';

type Row = readonly Value[];

/** SQL LIKE (`%`, `_`, backslash escapes), case-insensitive as information_schema compares. */
export function likeMatcher(pattern: string): (s: string) => boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\' && i + 1 < pattern.length) re += escapeRegExp(pattern[++i] as string);
    else if (ch === '%') re += '[\\s\\S]*';
    else if (ch === '_') re += '[\\s\\S]';
    else re += escapeRegExp(ch);
  }
  const compiled = new RegExp(`^${re}$`, 'iu');
  return (s) => compiled.test(s);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Resolves column names of a SHOW result (case-insensitive) for WHERE. */
export function showScope(columns: readonly ResultColumn[]): Scope {
  return {
    resolve(ref): ColumnBinding | undefined {
      const name = ref.name.toLowerCase();
      const offset = columns.findIndex((c) => c.name.toLowerCase() === name);
      const col = columns[offset];
      if (col === undefined) return undefined;
      return { offset, type: col.type, notNull: col.notNull };
    },
  };
}

export interface ShowFilter {
  readonly like?: string | undefined;
  /** Column the LIKE pattern applies to. */
  readonly likeColumn: number;
  readonly where?: Expr | undefined;
}

export function filterShowRows(
  columns: readonly ResultColumn[],
  rows: readonly Row[],
  filter: ShowFilter,
  ctx: EvalContext,
): Row[] {
  let out = rows.slice();
  if (filter.like !== undefined) {
    const match = likeMatcher(filter.like);
    out = out.filter((r) => {
      const v = r[filter.likeColumn];
      return typeof v === 'string' && match(v);
    });
  }
  if (filter.where !== undefined) {
    const pred = compileExpr(filter.where, showScope(columns), 'where clause');
    out = out.filter((r) => truthy(pred(r, ctx)) === true);
  }
  return out;
}
