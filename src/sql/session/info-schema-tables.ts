/** information_schema SCHEMATA, TABLES, COLUMNS, STATISTICS and PARTITIONS rows. */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { Value } from '../../types/index.js';
import { INFORMATION_SCHEMA, isVirtualTable } from '../plan/index.js';
import { columnDefaultText, columnExtra, columnKey, orderedIndexes } from './column-text.js';
import { visibleTables, type Visibility } from './info-schema-access.js';
import { typeFactValues, typeFacts } from './info-schema-column-type.js';
import { isView } from './info-schema-views.js';

export const DEF = 'def';

/** Sizes and counts of one stored table (estimates, as in MySQL). */
export interface TableStats {
  readonly rows: bigint;
  /** The next AUTO_INCREMENT value, null without an AUTO_INCREMENT column. */
  readonly autoIncrement: bigint | null;
}

export type StatsOf = (table: TableInfo) => Promise<TableStats>;

export function schemataRows(schema: Schema, vis: Visibility): Value[][] {
  const rows: Value[][] = [[DEF, INFORMATION_SCHEMA, 'utf8mb3', 'utf8mb3_general_ci', null, 'NO']];
  for (const db of schema.databases()) {
    if (vis.seesDatabase(db.name)) rows.push([DEF, db.name, db.charset, db.collation, null, 'NO']);
  }
  return rows;
}

/** Average bytes per row when rows exist; MySQL's InnoDB estimates are as rough. */
const AVG_ROW = 64n;
const PAGE = 16384n;

export async function tablesRows(schema: Schema, vis: Visibility, stats: StatsOf): Promise<Value[][]> {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis)) rows.push(await tableRow(t, stats));
  return rows;
}

/** One information_schema.TABLES row (SHOW TABLE STATUS shows the same values). */
export async function tableRow(t: TableInfo, stats: StatsOf): Promise<Value[]> {
  if (isVirtualTable(t)) {
    return [DEF, INFORMATION_SCHEMA, t.name, 'SYSTEM VIEW', null, 10n, null, 0n, 0n, 0n, 0n, 0n, 0n, null,
      null, null, null, null, null, '', ''];
  }
  if (isView(t)) {
    return [DEF, t.dbName, t.name, 'VIEW', null, null, null, null, null, null, null, null, null, null,
      null, null, null, null, null, null, 'VIEW'];
  }
  const s = await stats(t);
  const data = s.rows === 0n ? PAGE : ((s.rows * AVG_ROW + PAGE - 1n) / PAGE) * PAGE;
  const secondary = BigInt(t.indexes.filter((i) => !i.primary && i.state === 'public').length);
  return [
    DEF, t.dbName, t.name, 'BASE TABLE', 'InnoDB', 10n, 'Dynamic', s.rows, s.rows === 0n ? 0n : data / s.rows, data, 0n,
    secondary * PAGE, 0n, s.autoIncrement, null, null, null, t.collation, null, '', t.comment,
  ];
}

export function columnsRows(schema: Schema, vis: Visibility): Value[][] {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis)) {
    for (const col of t.columns) {
      const facts = typeFacts(col.type);
      rows.push([
        DEF, t.dbName, t.name, col.name, BigInt(col.offset + 1), columnDefaultText(col), col.notNull ? 'NO' : 'YES',
        ...typeFactValues(facts), facts.columnType, columnKey(t, col), columnExtra(col),
        'select,insert,update,references', col.comment, '', null,
      ]);
    }
  }
  return rows;
}

export async function statisticsRows(schema: Schema, vis: Visibility, stats: StatsOf): Promise<Value[][]> {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis, false)) rows.push(...(await indexRows(t, stats)));
  return rows;
}

/** One row per index column, in SHOW INDEX order; the cardinality estimate assumes distinct values. */
export async function indexRows(t: TableInfo, stats: StatsOf): Promise<Value[][]> {
  const indexes = orderedIndexes(t);
  if (indexes.length === 0) return [];
  const { rows: count } = await stats(t);
  const out: Value[][] = [];
  for (const idx of indexes) {
    idx.columns.forEach((ic, i) => {
      const col = t.columns[ic.offset];
      const nullable = col !== undefined && !col.notNull;
      out.push([
        DEF, t.dbName, t.name, idx.unique ? 0n : 1n, t.dbName, idx.name, BigInt(i + 1), ic.name, 'A', count,
        ic.length === undefined ? null : BigInt(ic.length), null, nullable ? 'YES' : '', 'BTREE', '', '', 'YES', null,
      ]);
    });
  }
  return out;
}

/** No partitioned tables: one row per table with NULL partition fields, as MySQL shows them. */
export async function partitionsRows(schema: Schema, vis: Visibility, stats: StatsOf): Promise<Value[][]> {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis, false)) {
    if (isView(t)) continue;
    const s = await stats(t);
    rows.push([
      DEF, t.dbName, t.name, null, null, null, null, null, null, null, null, null, s.rows, 0n, PAGE, 0n, 0n, 0n,
      null, null, null, null, '', null, null,
    ]);
  }
  return rows;
}
