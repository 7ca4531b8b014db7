/**
 * information_schema TABLE_CONSTRAINTS, KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS and
 * CHECK_CONSTRAINTS: primary keys, unique indexes, foreign keys (TableInfo.foreignKeys) and
 * CHECK constraints (TableInfo.checks), named as MySQL names them
 * (the primary key's constraint is `PRIMARY`).
 */
import type { ForeignKeyInfo, IndexInfo, Schema, TableInfo } from '../../catalog/index.js';
import type { Value } from '../../types/index.js';
import { orderedIndexes } from './column-text.js';
import { visibleTables, type Visibility } from './info-schema-access.js';
import { DEF } from './info-schema-tables.js';

function uniqueConstraints(t: TableInfo): IndexInfo[] {
  return orderedIndexes(t).filter((i) => i.primary || i.unique);
}

export function tableConstraintsRows(schema: Schema, vis: Visibility): Value[][] {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis, false)) {
    for (const idx of uniqueConstraints(t)) {
      rows.push([DEF, t.dbName, idx.name, t.dbName, t.name, idx.primary ? 'PRIMARY KEY' : 'UNIQUE', 'YES']);
    }
    for (const fk of t.foreignKeys) rows.push([DEF, t.dbName, fk.name, t.dbName, t.name, 'FOREIGN KEY', 'YES']);
    for (const c of t.checks ?? []) rows.push([DEF, t.dbName, c.name, t.dbName, t.name, 'CHECK', c.enforced ? 'YES' : 'NO']);
  }
  return rows;
}

export function checkConstraintsRows(schema: Schema, vis: Visibility): Value[][] {
  return visibleTables(schema, vis, false).flatMap((t) => (t.checks ?? []).map((c): Value[] => [DEF, t.dbName, c.name, c.expr]));
}

export function keyColumnUsageRows(schema: Schema, vis: Visibility): Value[][] {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis, false)) {
    for (const idx of uniqueConstraints(t)) {
      idx.columns.forEach((c, i) => {
        rows.push([DEF, t.dbName, idx.name, DEF, t.dbName, t.name, c.name, BigInt(i + 1), null, null, null, null]);
      });
    }
    for (const fk of t.foreignKeys) {
      fk.columns.forEach((c, i) => {
        rows.push([
          DEF, t.dbName, fk.name, DEF, t.dbName, t.name, c, BigInt(i + 1), BigInt(i + 1), fk.refDb, fk.refTable,
          fk.refColumns[i] ?? null,
        ]);
      });
    }
  }
  return rows;
}

export function referentialConstraintsRows(schema: Schema, vis: Visibility): Value[][] {
  const rows: Value[][] = [];
  for (const t of visibleTables(schema, vis, false)) {
    for (const fk of t.foreignKeys) {
      rows.push([
        DEF, t.dbName, fk.name, DEF, fk.refDb, referencedKeyName(schema, fk), 'NONE', rule(fk.onUpdate), rule(fk.onDelete),
        t.name, fk.refTable,
      ]);
    }
  }
  return rows;
}

/** The parent's primary key or unique index over exactly the referenced columns, else NULL. */
function referencedKeyName(schema: Schema, fk: ForeignKeyInfo): string | null {
  const parent = schema.table(fk.refDb, fk.refTable);
  if (parent === undefined) return null;
  const want = fk.refColumns.map((c) => c.toLowerCase()).join('\0');
  const idx = uniqueConstraints(parent).find((i) => i.columns.map((c) => c.name.toLowerCase()).join('\0') === want);
  return idx?.name ?? null;
}

function rule(action: string): string {
  return action === '' ? 'NO ACTION' : action.toUpperCase();
}
