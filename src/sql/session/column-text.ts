/** How SHOW COLUMNS / DESCRIBE / COM_FIELD_LIST describe a column. */
import type { ColumnInfo, TableInfo } from '../../catalog/index.js';

/** `PRI`, `UNI`, `MUL` or '' as MySQL's Key column computes it (first column of an index). */
export function columnKey(table: TableInfo, col: ColumnInfo): string {
  let key = '';
  for (const idx of table.indexes) {
    if (idx.state !== 'public') continue;
    const first = idx.columns[0];
    if (idx.primary && idx.columns.some((c) => c.offset === col.offset)) return 'PRI';
    if (first === undefined || first.offset !== col.offset) continue;
    if (idx.unique && idx.columns.length === 1) key = 'UNI';
    else if (key === '') key = 'MUL';
  }
  return key;
}

/** The Default column: NULL when none, CURRENT_TIMESTAMP[(n)] for now-defaults. */
export function columnDefaultText(col: ColumnInfo): string | null {
  const d = col.default;
  switch (d.kind) {
    case 'none':
    case 'null':
      return null;
    case 'literal':
      return d.text;
    case 'now':
      return nowText(d.fsp);
  }
}

export function nowText(fsp: number): string {
  return fsp > 0 ? `CURRENT_TIMESTAMP(${fsp})` : 'CURRENT_TIMESTAMP';
}

/** The Extra column: auto_increment, DEFAULT_GENERATED, on update CURRENT_TIMESTAMP. */
export function columnExtra(col: ColumnInfo): string {
  const parts: string[] = [];
  if (col.autoIncrement) parts.push('auto_increment');
  if (col.default.kind === 'now') parts.push('DEFAULT_GENERATED');
  if (col.onUpdateNow) parts.push(`on update ${nowText(col.type.scale)}`);
  return parts.join(' ');
}

/** Indexes in the order MySQL lists them: PRIMARY, then UNIQUE, then the rest; public only. */
export function orderedIndexes(table: TableInfo): TableInfo['indexes'] {
  const pub = table.indexes.filter((i) => i.state === 'public');
  const rank = (i: (typeof pub)[number]): number => (i.primary ? 0 : i.unique ? 1 : 2);
  return pub.map((i, n) => ({ i, n })).sort((a, b) => rank(a.i) - rank(b.i) || a.n - b.n).map((x) => x.i);
}
