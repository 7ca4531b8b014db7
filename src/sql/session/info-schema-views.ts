/**
 * The hook through which views reach information_schema (VIEWS rows, TABLE_TYPE 'VIEW' in
 * TABLES). Views are TableInfo entries with a `view` member (catalog/view.ts).
 */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { Value } from '../../types/index.js';
import { visibleTables, type Visibility } from './info-schema-access.js';

/**
 * Rows of information_schema.VIEWS in its column order: TABLE_CATALOG ('def'), TABLE_SCHEMA,
 * TABLE_NAME, VIEW_DEFINITION, CHECK_OPTION ('NONE'/'LOCAL'/'CASCADED'), IS_UPDATABLE ('YES'/'NO'),
 * DEFINER ('user@host'), SECURITY_TYPE ('DEFINER'/'INVOKER'), CHARACTER_SET_CLIENT, COLLATION_CONNECTION.
 */
export function viewRows(schema: Schema, vis: Visibility): Value[][] {
  return visibleTables(schema, vis, false)
    .filter(isView)
    .map((t) => {
      const v = t.view;
      const definer = (v?.definer ?? '').replace(/`/g, '');
      return ['def', t.dbName, t.name, v?.select ?? '', 'NONE', 'NO', definer, 'DEFINER', 'utf8mb4', 'utf8mb4_0900_ai_ci'];
    });
}

/** Is this schema entry a view (TABLES.TABLE_TYPE 'VIEW', no engine / sizes)? */
export function isView(table: TableInfo): boolean {
  return table.view !== undefined;
}
