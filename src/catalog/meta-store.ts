/**
 * Reads and writes of catalog records inside a transaction (layout: meta-keys.ts). DDL code
 * composes these in one Txn so definitions and the schema version change atomically.
 */
import type { Txn } from '../txn/types.js';
import { keyNext, utf8Decode, utf8Encode } from '../util/index.js';
import { decodeDatabaseInfo, decodeTableInfo, encodeInfo } from './info-json.js';
import { MetaFormatError, parseBigIntText } from './json-check.js';
import {
  allDbsRange,
  allTablesRange,
  autoIdKey,
  dbKey,
  dbTablesRange,
  FIRST_GLOBAL_ID,
  type MetaRange,
  NEXT_GLOBAL_ID_KEY,
  SCHEMA_VERSION_KEY,
  tableKey,
} from './meta-keys.js';
import type { DatabaseInfo, TableInfo } from './types.js';

const SCAN_PAGE = 512;

export async function readCounter(txn: Txn, key: Uint8Array): Promise<bigint | undefined> {
  const v = await txn.get(key);
  return v === undefined ? undefined : counterFromBytes(v);
}

export function writeCounter(txn: Txn, key: Uint8Array, value: bigint): void {
  txn.put(key, utf8Encode(value.toString()));
}

export async function readSchemaVersion(txn: Txn): Promise<bigint> {
  return (await readCounter(txn, SCHEMA_VERSION_KEY)) ?? 0n;
}

/** The stored schema version's bytes without a promise (Txn.getNow): undefined when absent, null when only get() can answer. */
export function schemaVersionBytesNow(txn: Txn): Uint8Array | undefined | null {
  return txn.getNow(SCHEMA_VERSION_KEY);
}

/** A counter's stored bytes (writeCounter) as its value. */
export function counterFromBytes(v: Uint8Array): bigint {
  return parseBigIntText(utf8Decode(v), 'counter');
}

/** Increments the global schema version; every DDL transaction calls this exactly once. */
export async function bumpSchemaVersion(txn: Txn): Promise<bigint> {
  const next = (await readSchemaVersion(txn)) + 1n;
  writeCounter(txn, SCHEMA_VERSION_KEY, next);
  return next;
}

/** A fresh database / table id (never reused). */
export async function allocGlobalId(txn: Txn): Promise<number> {
  const next = (await readCounter(txn, NEXT_GLOBAL_ID_KEY)) ?? BigInt(FIRST_GLOBAL_ID);
  if (next > BigInt(Number.MAX_SAFE_INTEGER)) throw new MetaFormatError('nextGlobalId overflow');
  writeCounter(txn, NEXT_GLOBAL_ID_KEY, next + 1n);
  return Number(next);
}

/** Writes the initial meta keys if this store has never been used by a catalog. */
export async function bootstrapMeta(txn: Txn): Promise<void> {
  if ((await txn.get(SCHEMA_VERSION_KEY)) !== undefined) return;
  writeCounter(txn, SCHEMA_VERSION_KEY, 1n);
  writeCounter(txn, NEXT_GLOBAL_ID_KEY, BigInt(FIRST_GLOBAL_ID));
}

export async function readDatabase(txn: Txn, name: string): Promise<DatabaseInfo | undefined> {
  const v = await txn.get(dbKey(name));
  return v === undefined ? undefined : decodeDatabaseInfo(v);
}

export function writeDatabase(txn: Txn, info: DatabaseInfo): void {
  txn.put(dbKey(info.name), encodeInfo(info));
}

export function deleteDatabase(txn: Txn, name: string): void {
  txn.delete(dbKey(name));
}

export async function readTable(txn: Txn, db: string, name: string): Promise<TableInfo | undefined> {
  const v = await txn.get(tableKey(db, name));
  return v === undefined ? undefined : decodeTableInfo(v);
}

/** Writes a table definition (its key is the table's tableDefKey). */
export function writeTable(txn: Txn, info: TableInfo): void {
  txn.put(tableKey(info.dbName, info.name), encodeInfo(info));
}

/** Deletes a table definition and its AUTO_INCREMENT counter. */
export function deleteTable(txn: Txn, info: TableInfo): void {
  txn.delete(tableKey(info.dbName, info.name));
  txn.delete(autoIdKey(info.id));
}

export async function readDatabaseTables(txn: Txn, db: string): Promise<TableInfo[]> {
  return (await scanAll(txn, dbTablesRange(db))).map(decodeTableInfo);
}

/** Every database and table definition in the txn's snapshot. */
export async function loadDefinitions(txn: Txn): Promise<{ dbs: DatabaseInfo[]; tables: TableInfo[] }> {
  const [dbValues, tableValues] = await Promise.all([scanAll(txn, allDbsRange()), scanAll(txn, allTablesRange())]);
  return { dbs: dbValues.map(decodeDatabaseInfo), tables: tableValues.map(decodeTableInfo) };
}

/** Values of every key in `range`, paging through it. */
async function scanAll(txn: Txn, range: MetaRange): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  let start = range.start;
  for (;;) {
    const page = await txn.scan({ start, end: range.end }, { limit: SCAN_PAGE });
    for (const p of page) out.push(p.value);
    const last = page[page.length - 1];
    if (page.length < SCAN_PAGE || last === undefined) return out;
    start = keyNext(last.key);
  }
}
