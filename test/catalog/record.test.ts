import { describe, expect, it } from 'vitest';
import {
  columnDefaultValue,
  decodeRecord,
  encodeRecordValue,
  indexEntry,
  recordKeyOf,
  rowHandle,
  type ColumnInfo,
  type IndexInfo,
  type TableInfo,
} from '../../src/catalog/index.js';
import { buildTableInfo } from '../../src/catalog/table-builder.js';
import { decodeIndexKey, decodeIndexValue, decodeKeyValues, decodeRecordKey, encodeRow, indexKey } from '../../src/codec/index.js';
import { DateTime, Decimal, Duration, type Value } from '../../src/types/index.js';
import { col, key, spec, t } from './helpers.js';

const DB = { id: 1, name: 'd', charset: 'utf8mb4', collation: 'utf8mb4_0900_ai_ci' };
const NOW = new DateTime('datetime', 2024, 5, 6, 7, 8, 9, 123456, 6);

const allTypes = [
  col('ti', t('tinyint')),
  col('si', t('smallint', { unsigned: true })),
  col('bi', t('bigint')),
  col('fl', t('float')),
  col('db', t('double')),
  col('de', t('decimal', { length: 10, scale: 2 })),
  col('ch', t('char', { length: 5 })),
  col('vc', t('varchar', { length: 20 })),
  col('tx', t('text')),
  col('bn', t('binary', { length: 3 })),
  col('vb', t('varbinary', { length: 8 })),
  col('bl', t('blob')),
  col('dt', t('date')),
  col('dtt', t('datetime', { scale: 3 })),
  col('ts', t('timestamp')),
  col('tm', t('time', { scale: 2 })),
  col('yr', t('year')),
  col('js', t('json')),
];

const allValues: Value[] = [
  -5n,
  65535n,
  -(2n ** 63n),
  1.5,
  -2.25e100,
  new Decimal('12345678.91'),
  'ab',
  'héllo 🌍',
  'x'.repeat(1000),
  new Uint8Array([1, 0, 2]),
  new Uint8Array([255, 0]),
  new Uint8Array([]),
  new DateTime('date', 2024, 2, 29),
  new DateTime('datetime', 2023, 12, 31, 23, 59, 58, 123000, 3),
  new DateTime('datetime', 1999, 1, 1, 0, 0, 0, 0, 0),
  new Duration(-(3600n * 1_000_000n + 120_000n), 2),
  2024n,
  '{"a":1}',
];

function build(name: string, columns = allTypes, indexes = [] as ReturnType<typeof key>[]): TableInfo {
  return buildTableInfo(DB, spec(name, columns, indexes), 200);
}

function roundTrip(info: TableInfo, row: Value[], rowId?: bigint): Value[] {
  const handle = rowHandle(info, row, rowId);
  const k = recordKeyOf(info, handle);
  const decodedKey = decodeRecordKey(k);
  expect(decodedKey.tableId).toBe(info.id);
  return decodeRecord(info, decodedKey.handle, encodeRecordValue(info, row));
}

describe('record layout', () => {
  it('round-trips every column type with an int handle', () => {
    const info = build('i', [col('id', t('bigint'), { primaryKey: true }), ...allTypes]);
    expect(info.pkIsHandle).toBe(true);
    const row = [42n, ...allValues];
    expect(roundTrip(info, row)).toEqual(row);
    expect(rowHandle(info, row)).toEqual({ kind: 'int', value: 42n });
  });

  it('does not store the int handle column in the value', () => {
    const info = build('i', [col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    const withPk = encodeRecordValue(info, [1n, 2n]);
    expect(withPk).toEqual(encodeRow([2], [2n], [t('int')]));
  });

  it('round-trips with a common handle and restores PK columns from it', () => {
    const bin = t('varchar', { length: 10, collation: 'utf8mb4_bin' });
    const info = build('c', [col('a', bin), col('b', t('int')), ...allTypes], [key(['a', 'b'], { primary: true })]);
    expect(info.handleKind).toBe('common');
    const row = ['k1', 7n, ...allValues];
    expect(roundTrip(info, row)).toEqual(row);
    const handle = rowHandle(info, row);
    if (handle.kind !== 'common') throw new Error('expected a common handle');
    expect(decodeKeyValues(handle.encoded, [bin, t('int')]).values).toEqual(['k1', 7n]);
    // A value without the PK columns (e.g. written before they were stored) restores them from the handle.
    const bare = encodeRow([3], [-5n], [t('tinyint')]);
    const decoded = decodeRecord(info, handle, bare);
    expect(decoded.slice(0, 3)).toEqual(['k1', 7n, -5n]);
  });

  it('round-trips with a hidden row id and NULLs', () => {
    const info = build('h');
    expect(info.handleKind).toBe('int');
    expect(info.pkIsHandle).toBe(false);
    const row = allValues.map(() => null);
    expect(roundTrip(info, row, 9n)).toEqual(row);
    expect(rowHandle(info, row, 9n)).toEqual({ kind: 'int', value: 9n });
    expect(() => rowHandle(info, row)).toThrow();
  });

  it('fills column ids missing from a stored row with their (origin) defaults', () => {
    const info = build('m', [
      col('id', t('int'), { primaryKey: true }),
      col('a', t('int'), { default: { kind: 'literal', text: '17' } }),
      col('b', t('varchar', { length: 5 })),
      col('c', t('datetime', { scale: 0 }), { default: { kind: 'now', fsp: 0 } }),
    ]);
    const withOrigin: TableInfo = {
      ...info,
      columns: info.columns.map((c) => (c.name === 'c' ? { ...c, originDefault: { kind: 'literal', text: '2020-01-02 03:04:05' } } : c)),
    };
    const stored = encodeRow([], [], []);
    expect(decodeRecord(withOrigin, { kind: 'int', value: 3n }, stored)).toEqual([
      3n,
      17n,
      null,
      new DateTime('datetime', 2020, 1, 2, 3, 4, 5, 0, 0),
    ]);
  });
});

describe('columnDefaultValue', () => {
  const c = (type: ColumnInfo['type'], def: ColumnInfo['default']): ColumnInfo => ({
    id: 1, name: 'x', offset: 0, type, notNull: false, default: def, autoIncrement: false, onUpdateNow: false, comment: '',
  });
  const lit = (text: string, binary?: boolean): ColumnInfo['default'] => (binary === undefined ? { kind: 'literal', text } : { kind: 'literal', text, binary });

  it('converts literals to the column representation', () => {
    expect(columnDefaultValue(c(t('int'), lit('-12')), NOW)).toBe(-12n);
    expect(columnDefaultValue(c(t('int'), lit('1.5')), NOW)).toBe(2n);
    expect(columnDefaultValue(c(t('double'), lit('2.5')), NOW)).toBe(2.5);
    expect(columnDefaultValue(c(t('decimal', { length: 6, scale: 2 }), lit('3.14159')), NOW)).toEqual(new Decimal('3.14'));
    expect(columnDefaultValue(c(t('varchar', { length: 9 }), lit('abc')), NOW)).toBe('abc');
    expect(columnDefaultValue(c(t('varbinary', { length: 9 }), lit('ab')), NOW)).toEqual(new Uint8Array([97, 98]));
    expect(columnDefaultValue(c(t('varbinary', { length: 9 }), lit('0x', true)), NOW)).toEqual(new Uint8Array([48, 120]));
    expect(columnDefaultValue(c(t('binary', { length: 3 }), lit('a')), NOW)).toEqual(new Uint8Array([97, 0, 0]));
    expect(columnDefaultValue(c(t('date'), lit('2024-01-31')), NOW)).toEqual(new DateTime('date', 2024, 1, 31));
    expect(columnDefaultValue(c(t('datetime', { scale: 2 }), lit('2024-01-31 10:11:12.345')), NOW)).toEqual(
      new DateTime('datetime', 2024, 1, 31, 10, 11, 12, 340000, 2),
    );
    expect(columnDefaultValue(c(t('time'), lit('-12:30:00')), NOW)).toEqual(new Duration(-45_000_000_000n, 0));
    expect(columnDefaultValue(c(t('year'), lit('2001')), NOW)).toBe(2001n);
  });

  it('evaluates none / null / CURRENT_TIMESTAMP', () => {
    expect(columnDefaultValue(c(t('int'), { kind: 'none' }), NOW)).toBeNull();
    expect(columnDefaultValue(c(t('int'), { kind: 'null' }), NOW)).toBeNull();
    expect(columnDefaultValue(c(t('datetime', { scale: 3 }), { kind: 'now', fsp: 3 }), NOW)).toEqual(
      new DateTime('datetime', 2024, 5, 6, 7, 8, 9, 123000, 3),
    );
    expect(columnDefaultValue(c(t('timestamp'), { kind: 'now', fsp: 0 }), NOW)).toEqual(new DateTime('datetime', 2024, 5, 6, 7, 8, 9, 0, 0));
  });
});

describe('indexEntry', () => {
  const info = build('x', [
    col('id', t('int'), { primaryKey: true }),
    col('u', t('varchar', { length: 20 }), { unique: true }),
    col('n', t('int')),
    col('p', t('varchar', { length: 20, collation: 'utf8mb4_bin' })),
  ], [key(['n']), key(['p'], { columns: [{ name: 'p', length: 3 }] })]);
  const ix = (name: string): IndexInfo => {
    const found = info.indexes.find((i) => i.name === name);
    if (found === undefined) throw new Error(name);
    return found;
  };
  const h = { kind: 'int', value: 5n } as const;

  it('makes unique entries without NULL distinct (handle in the value)', () => {
    const e = indexEntry(info, ix('u'), [5n, 'abc', 1n, 'x'], h);
    expect(e.distinct).toBe(true);
    expect(e.key).toEqual(indexKey(info.id, ix('u').id, ['abc'], [t('varchar', { length: 20 })]));
    expect(decodeIndexValue(e.value)).toEqual(h);
  });

  it('appends the handle for NULL unique values and non-unique indexes', () => {
    const e = indexEntry(info, ix('u'), [5n, null, 1n, 'x'], h);
    expect(e.distinct).toBe(false);
    expect(e.key).toEqual(indexKey(info.id, ix('u').id, [null], [t('varchar', { length: 20 })], h));
    expect(decodeIndexValue(e.value)).toBeNull();
    const n = indexEntry(info, ix('n'), [5n, 'a', 9n, 'x'], h);
    expect(n.distinct).toBe(false);
    expect(decodeIndexKey(n.key, [t('int')], 'int')).toEqual({ values: [9n], handle: h });
  });

  it('indexes the first N characters of prefix columns', () => {
    const e = indexEntry(info, ix('p'), [5n, 'a', 1n, 'héllo'], h);
    expect(decodeIndexKey(e.key, [t('varchar', { length: 20, collation: 'utf8mb4_bin' })], 'int').values).toEqual(['hél']);
  });

  it('keys a _ci column by its collation weight: equal for case and accent variants', () => {
    const a = indexEntry(info, ix('u'), [5n, 'Élan', 1n, 'x'], h);
    const b = indexEntry(info, ix('u'), [6n, 'elan', 1n, 'x'], { kind: 'int', value: 6n });
    expect(a.key).toEqual(b.key);
  });
});
