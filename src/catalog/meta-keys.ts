/**
 * Meta key layout. Every catalog record lives in the same KV store as the data, under keys
 * built with codec.metaKey(...parts) ('m' + EncodeBytes(utf8(part)) per part; the encoding is
 * prefix-free per part, so the keys of a parts-prefix form one contiguous byte range).
 *
 * | key                                   | value (UTF-8 JSON)                                 |
 * |---------------------------------------|----------------------------------------------------|
 * | metaKey('schemaVersion')              | global schema version, decimal int: `17`            |
 * | metaKey('nextGlobalId')               | next database/table id to hand out: `104`           |
 * | metaKey('db', db)                     | DatabaseInfo: `{"id":100,"name":"shop",...}`        |
 * | metaKey('table', db, table)           | TableInfo: `{"id":101,"dbName":"shop","name":"t",...}` |
 * | metaKey('autoid', String(tableId))    | next AUTO_INCREMENT / row id not yet reserved: `2001` |
 *
 * Example: CREATE DATABASE shop; CREATE TABLE shop.t (id INT PRIMARY KEY) on a fresh store
 * writes db 'shop' (id 100), table ('shop','t') (id 101), nextGlobalId = 102 and bumps
 * schemaVersion 1 -> 2 -> 3 (one bump per DDL transaction). `tables('shop')` is one prefix scan
 * of metaKey('table', 'shop'). The table's rows live under codec.tablePrefix(101).
 */
import { metaKey } from '../codec/index.js';
import { prefixEnd } from '../util/index.js';

/** Same shape as kv KeyRange (catalog does not import kv). */
export interface MetaRange {
  readonly start: Uint8Array;
  readonly end: Uint8Array;
}

export const SCHEMA_VERSION_KEY: Uint8Array = metaKey('schemaVersion');
export const NEXT_GLOBAL_ID_KEY: Uint8Array = metaKey('nextGlobalId');

/** First id handed out for databases and tables (lower ids are reserved). */
export const FIRST_GLOBAL_ID = 100;

export function dbKey(db: string): Uint8Array {
  return metaKey('db', db);
}

export function tableKey(db: string, table: string): Uint8Array {
  return metaKey('table', db, table);
}

export function autoIdKey(tableId: number): Uint8Array {
  return metaKey('autoid', String(tableId));
}

/** All database definitions. */
export function allDbsRange(): MetaRange {
  return prefixRange(metaKey('db'));
}

/** All table definitions of every database. */
export function allTablesRange(): MetaRange {
  return prefixRange(metaKey('table'));
}

/** The table definitions of one database. */
export function dbTablesRange(db: string): MetaRange {
  return prefixRange(metaKey('table', db));
}

export function prefixRange(prefix: Uint8Array): MetaRange {
  return { start: prefix, end: prefixEnd(prefix) };
}
