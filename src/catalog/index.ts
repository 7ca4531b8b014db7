/** Catalog: schema definitions in the KV, DDL, AUTO_INCREMENT, and the row / index record layout. */
export * from './types.js';
export type { Schema } from './schema.js';
export { findColumn, findIndex, primaryIndex, readableIndexes, writableIndexes } from './schema.js';
export type { ColumnSpec, IndexSpec, IndexColumnSpec, TableSpec, CreateDatabaseOptions } from './specs.js';
export type { AlterAction, AlterHooks, ColumnPlacement } from './alter-specs.js';
export type { ForeignKeySpec } from './constraints.js';
export { Catalog, type CatalogOptions } from './catalog.js';
export { rowHandle, recordKeyOf, encodeRecordValue, decodeRecord } from './record.js';
export { indexEntry, indexColumnTypes, indexValues } from './index-entry.js';
export { columnDefaultValue, columnOriginValue } from './column-default.js';
export { sameHandle, type BackfillProgress, type BackfillStatus } from './backfill.js';
export { SCHEMA_VERSION_KEY } from './meta-keys.js';
export { AccountCatalog, type AccountEdit, type AccountSnapshot, type DbGrant, type StoredAccount, type TableGrant } from './accounts.js';
export { isView, type ViewInfo, type ViewSpec } from './view.js';
