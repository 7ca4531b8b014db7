/** Result-set metadata (ColumnDefinition41 fields) from a plan's output schema. */
import type { TableInfo } from '../../catalog/index.js';
import { makeType } from '../../types/index.js';
import type { RowSchema, SchemaColumn } from '../plan/index.js';
import type { ResultColumn } from '../../types/index.js';

export function resultColumns(schema: RowSchema): ResultColumn[] {
  return schema.columns.map(resultColumn);
}

function resultColumn(c: SchemaColumn): ResultColumn {
  const base = c.base;
  if (base === undefined) {
    return { name: c.name, orgName: '', table: '', orgTable: '', schema: '', type: c.type, notNull: c.notNull, primaryKey: false, uniqueKey: false, multipleKey: false, autoIncrement: false };
  }
  const flags = keyFlags(base.table, base.column.offset);
  return {
    name: c.name,
    orgName: base.column.name,
    table: c.table,
    orgTable: base.table.name,
    schema: base.table.dbName,
    type: c.type,
    notNull: base.column.notNull,
    ...flags,
    autoIncrement: base.column.autoIncrement,
  };
}

function keyFlags(table: TableInfo, offset: number): { primaryKey: boolean; uniqueKey: boolean; multipleKey: boolean } {
  let primaryKey = false;
  let uniqueKey = false;
  let multipleKey = false;
  for (const ix of table.indexes) {
    if (ix.primary) {
      if (ix.columns.some((c) => c.offset === offset)) primaryKey = true;
    } else if (ix.columns[0]?.offset === offset) {
      if (ix.unique && ix.columns.length === 1) uniqueKey = true;
      else multipleKey = true;
    }
  }
  return { primaryKey, uniqueKey, multipleKey };
}

/** A VARCHAR result column that is not a table column (EXPLAIN and the like). */
export function textColumn(name: string): ResultColumn {
  return {
    name, orgName: '', table: '', orgTable: '', schema: '',
    type: makeType('varchar', { length: 256 }), notNull: false,
    primaryKey: false, uniqueKey: false, multipleKey: false, autoIncrement: false,
  };
}
