import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBulkInsertBytes } from '../../../src/sql/parse/bulk-insert-bytes.js';
import { parseBulkInsert } from '../../../src/sql/parse/bulk-insert.js';
import { insert } from './bulk-insert-arbitraries.js';

/** `sql` as a COM_QUERY payload: the command byte, then the text's UTF-8. */
const payload = (sql: string): Buffer => Buffer.concat([Buffer.from([0x03]), Buffer.from(sql, 'utf8')]);

/** UTF-8 bytes up to the end of the VALUES / VALUE keyword (the head, which must fit the first window). */
const headBytes = (sql: string): number => Buffer.byteLength(sql.slice(0, sql.toUpperCase().indexOf('VALUE') + 6));

describe('parseBulkInsertBytes', () => {
  it('gives what parseBulkInsert gives for the decoded text, whatever the windows cut', () => {
    fc.assert(
      fc.property(insert, fc.integer({ min: 0, max: 64 }), (sql, extra) => {
        const got = parseBulkInsertBytes(payload(sql), 1, headBytes(sql) + extra);
        expect(got).toBeDefined();
        expect(got).toEqual(parseBulkInsert(sql));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a statement of many windows, with multi-byte characters on every cut', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `(${i}, 'ä€😀-${'x'.repeat(i % 37)}', "q""${i}", -${i}.5e1, NULL)`).join(',\n');
    const sql = `INSERT INTO sbtest1 (id, c, pad, k, z) VALUES ${rows};`;
    const bytes = payload(sql);
    expect(bytes.length).toBeGreaterThan(3 * 64 * 1024);
    const expected = parseBulkInsert(sql);
    expect(expected?.rows).toHaveLength(3000);
    expect(parseBulkInsertBytes(bytes, 1)).toEqual(expected);
    for (const window of [97, 1000, 4096]) expect(parseBulkInsertBytes(bytes, 1, window)).toEqual(expected);
  });

  it('grows a window that a single row overruns', () => {
    const big = 'y'.repeat(5000);
    const sql = `INSERT INTO t VALUES (1, '${big}'), (2, 'b'), (3, '${big}${big}')`;
    expect(parseBulkInsertBytes(payload(sql), 1, 64)).toEqual(parseBulkInsert(sql));
  });

  it.each([
    ['a function late in the text', `INSERT INTO t VALUES ${'(1, 2),'.repeat(200)} (NOW(), 1)`],
    ['a second statement after the rows', `INSERT INTO t VALUES ${'(1, 2),'.repeat(200)} (3, 4); SELECT 1`],
    ['an unterminated last row', `INSERT INTO t VALUES ${'(1, 2),'.repeat(200)} (3, 4`],
    ['a missing separator', `INSERT INTO t VALUES ${'(1, 2),'.repeat(200)} (3, 4) (5, 6)`],
  ])('leaves %s to the caller (undefined), found windows after the first', (_what, sql) => {
    expect(parseBulkInsert(sql)).toBeUndefined();
    expect(parseBulkInsertBytes(payload(sql), 1, headBytes(sql) + 5)).toBeUndefined();
    // The rows before the fault were read: the same text up to them is a statement.
    const good = sql.slice(0, sql.lastIndexOf('(1, 2)') + 6);
    expect(parseBulkInsert(good)?.rows).toHaveLength(200);
    expect(parseBulkInsertBytes(payload(good), 1, headBytes(sql) + 5)).toEqual(parseBulkInsert(good));
  });

  it.each([
    ['a VALUE keyword cut into VALUE|S', "INSERT INTO t VALUES (1, 'a')", 19],
    ['a head longer than the first window', `INSERT INTO t (${Array.from({ length: 50 }, (_, i) => `col${i}`).join(', ')}) VALUES (1)`, 64],
  ])('leaves %s to the caller (undefined)', (_what, sql, window) => {
    expect(parseBulkInsert(sql)).toBeDefined();
    expect(parseBulkInsertBytes(payload(sql), 1, window)).toBeUndefined();
  });

  it('leaves text that is not UTF-8 to the caller', () => {
    const bytes = payload(`INSERT INTO t VALUES (1, 'ab'), (2, 'cd')`);
    bytes[bytes.indexOf('cd') + 1] = 0xff;
    expect(parseBulkInsertBytes(bytes, 1)).toBeUndefined();
    expect(parseBulkInsertBytes(payload('INSERT INTO t VALUES (1)'), 1)).toEqual(parseBulkInsert('INSERT INTO t VALUES (1)'));
  });

  it('reads nothing past the end or from an empty text', () => {
    expect(parseBulkInsertBytes(payload(''), 1)).toBeUndefined();
    expect(parseBulkInsertBytes(Buffer.from([0x03]), 1)).toBeUndefined();
  });
});
