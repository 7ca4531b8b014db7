/**
 * TableInfo / DatabaseInfo <-> JSON bytes. Reading validates every field (values from the KV
 * are untrusted `unknown`) and deep-freezes the result: schema objects are immutable and are
 * shared between sessions.
 */
import type { ColumnType, LobSize, TypeKind } from '../types/index.js';
import { utf8Decode, utf8Encode } from '../util/index.js';
import type {
  ColumnDefault,
  CheckInfo,
  ColumnInfo,
  DatabaseInfo,
  ForeignKeyInfo,
  IndexColumnInfo,
  IndexInfo,
  TableInfo,
} from './types.js';
import {
  asArray,
  asObject,
  bool,
  int,
  type JsonObject,
  MetaFormatError,
  oneOf,
  optBool,
  optInt,
  parseJson,
  str,
  strArray,
} from './json-check.js';
import { readView } from './view.js';

const TYPE_KINDS = Object.keys({
  tinyint: 1, smallint: 1, mediumint: 1, int: 1, bigint: 1, float: 1, double: 1, decimal: 1,
  char: 1, varchar: 1, text: 1, binary: 1, varbinary: 1, blob: 1, date: 1, datetime: 1,
  timestamp: 1, time: 1, year: 1, json: 1, enum: 1, set: 1, bit: 1, null: 1,
} satisfies Record<TypeKind, 1>) as TypeKind[];
const LOB_SIZES: readonly LobSize[] = ['tiny', 'normal', 'medium', 'long'];

export function encodeInfo(info: TableInfo | DatabaseInfo): Uint8Array {
  return utf8Encode(JSON.stringify(info));
}

export function decodeDatabaseInfo(bytes: Uint8Array): DatabaseInfo {
  const o = asObject(parseJson(utf8Decode(bytes), 'DatabaseInfo'), 'DatabaseInfo');
  const w = 'DatabaseInfo';
  return deepFreeze({
    id: int(o, 'id', w),
    name: str(o, 'name', w),
    charset: str(o, 'charset', w),
    collation: str(o, 'collation', w),
  });
}

export function decodeTableInfo(bytes: Uint8Array): TableInfo {
  const o = asObject(parseJson(utf8Decode(bytes), 'TableInfo'), 'TableInfo');
  const w = `TableInfo ${typeof o['name'] === 'string' ? o['name'] : '?'}`;
  const info: TableInfo = {
    id: int(o, 'id', w),
    dbName: str(o, 'dbName', w),
    name: str(o, 'name', w),
    columns: asArray(o['columns'], `${w}.columns`).map((c, i) => readColumn(c, `${w}.columns[${i}]`)),
    indexes: asArray(o['indexes'], `${w}.indexes`).map((x, i) => readIndex(x, `${w}.indexes[${i}]`)),
    pkIsHandle: bool(o, 'pkIsHandle', w),
    handleKind: oneOf(o, 'handleKind', ['int', 'common'], w),
    autoIncrementOffset: int(o, 'autoIncrementOffset', w),
    maxColumnId: int(o, 'maxColumnId', w),
    maxIndexId: int(o, 'maxIndexId', w),
    foreignKeys: asArray(o['foreignKeys'], `${w}.foreignKeys`).map((f, i) => readForeignKey(f, `${w}.foreignKeys[${i}]`)),
    comment: str(o, 'comment', w),
    charset: str(o, 'charset', w),
    collation: str(o, 'collation', w),
    revision: int(o, 'revision', w),
  };
  const view = o['view'] === undefined ? {} : { view: readView(o['view'], `${w}.view`) };
  if (o['checks'] === undefined) return deepFreeze({ ...info, ...view });
  const checks = asArray(o['checks'], `${w}.checks`).map((x, i) => readCheck(x, `${w}.checks[${i}]`));
  return deepFreeze({ ...info, checks, ...view });
}

export function readColumnType(v: unknown, what: string): ColumnType {
  const o = asObject(v, what);
  const t: ColumnType = {
    kind: oneOf(o, 'kind', TYPE_KINDS, what),
    unsigned: bool(o, 'unsigned', what),
    length: int(o, 'length', what),
    scale: int(o, 'scale', what),
    lob: oneOf(o, 'lob', LOB_SIZES, what),
    collation: str(o, 'collation', what),
  };
  // ENUM / SET members (absent for every other kind).
  return o['members'] === undefined ? t : { ...t, members: strArray(o, 'members', what) };
}

function readColumn(v: unknown, what: string): ColumnInfo {
  const o = asObject(v, what);
  const col: ColumnInfo = {
    id: int(o, 'id', what),
    name: str(o, 'name', what),
    offset: int(o, 'offset', what),
    type: readColumnType(o['type'], `${what}.type`),
    notNull: bool(o, 'notNull', what),
    default: readDefault(o['default'], `${what}.default`),
    autoIncrement: bool(o, 'autoIncrement', what),
    onUpdateNow: bool(o, 'onUpdateNow', what),
    comment: str(o, 'comment', what),
  };
  if (o['originDefault'] === undefined) return col;
  return { ...col, originDefault: readDefault(o['originDefault'], `${what}.originDefault`) };
}

function readDefault(v: unknown, what: string): ColumnDefault {
  const o = asObject(v, what);
  const kind = oneOf(o, 'kind', ['none', 'null', 'literal', 'now'], what);
  switch (kind) {
    case 'none':
    case 'null':
      return { kind };
    case 'now':
      return { kind, fsp: int(o, 'fsp', what) };
    case 'literal': {
      const binary = optBool(o, 'binary', what);
      const text = str(o, 'text', what);
      return binary === undefined ? { kind, text } : { kind, text, binary };
    }
  }
}

function readIndex(v: unknown, what: string): IndexInfo {
  const o = asObject(v, what);
  return {
    id: int(o, 'id', what),
    name: str(o, 'name', what),
    columns: asArray(o['columns'], `${what}.columns`).map((c, i) => readIndexColumn(c, `${what}.columns[${i}]`)),
    unique: bool(o, 'unique', what),
    primary: bool(o, 'primary', what),
    state: oneOf(o, 'state', ['writeOnly', 'public'], what),
  };
}

function readIndexColumn(v: unknown, what: string): IndexColumnInfo {
  const o = asObject(v, what);
  const length = optInt(o, 'length', what);
  const base = { offset: int(o, 'offset', what), name: str(o, 'name', what) };
  return length === undefined ? base : { ...base, length };
}

function readForeignKey(v: unknown, what: string): ForeignKeyInfo {
  const o: JsonObject = asObject(v, what);
  return {
    name: str(o, 'name', what),
    columns: strArray(o, 'columns', what),
    refDb: str(o, 'refDb', what),
    refTable: str(o, 'refTable', what),
    refColumns: strArray(o, 'refColumns', what),
    onDelete: str(o, 'onDelete', what),
    onUpdate: str(o, 'onUpdate', what),
  };
}

function readCheck(v: unknown, what: string): CheckInfo {
  const o: JsonObject = asObject(v, what);
  return {
    name: str(o, 'name', what),
    expr: str(o, 'expr', what),
    enforced: bool(o, 'enforced', what),
    columns: strArray(o, 'columns', what),
  };
}

/** Freezes an object graph of plain objects and arrays (schema objects are shared). */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const child of Object.values(v)) deepFreeze(child);
  }
  return v;
}

export { MetaFormatError };
