import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBulkInsert } from '../../../src/sql/parse/bulk-insert.js';
import { parseTokens, statementTokens } from '../../../src/sql/parse/parse-statement.js';
import { StatementCache } from '../../../src/sql/parse/statement-cache.js';
import { insert } from './bulk-insert-arbitraries.js';

/** What the token path makes of `sql` (the statement the bulk path must reproduce). */
const tokenPath = (sql: string) => parseTokens(sql, statementTokens(sql), false).stmt;

describe('parseBulkInsert', () => {
  it('builds exactly the statement of the token path', () => {
    fc.assert(
      fc.property(insert, (sql) => {
        const bulk = parseBulkInsert(sql);
        expect(bulk).toBeDefined();
        expect(bulk).toEqual(tokenPath(sql));
      }),
      { numRuns: 500 },
    );
  });

  it('reads signed numbers, escapes and keywords like the lexer', () => {
    const sql = `INSERT INTO t VALUES (-5, + 2.50, -1e3, 'a''b\\n', "q\\"", NULL, true, FALSE, DEFAULT), ()`;
    expect(parseBulkInsert(sql)).toEqual({
      kind: 'insert',
      table: { name: 't' },
      columns: [],
      ignore: false,
      replace: false,
      onDuplicate: [],
      rows: [
        [
          { kind: 'literal', value: -5n },
          expect.objectContaining({ kind: 'literal' }),
          { kind: 'literal', value: -1000 },
          { kind: 'literal', value: "a'b\n" },
          { kind: 'literal', value: 'q"' },
          { kind: 'literal', value: null },
          { kind: 'literal', value: 1n },
          { kind: 'literal', value: 0n },
          { kind: 'default' },
        ],
        [],
      ],
    });
    expect(parseBulkInsert(sql)).toEqual(tokenPath(sql));
  });

  it.each([
    ['a placeholder', 'INSERT INTO t VALUES (?, 1)'],
    ['a hex literal', "INSERT INTO t VALUES (X'0a', 1)"],
    ['a 0x literal', 'INSERT INTO t VALUES (0x0a, 1)'],
    ['an introducer', "INSERT INTO t VALUES (_utf8mb4'a')"],
    ['an expression', 'INSERT INTO t VALUES (1 + 2)'],
    ['a function', 'INSERT INTO t VALUES (NOW())'],
    ['DEFAULT(col)', 'INSERT INTO t VALUES (DEFAULT(a))'],
    ['a comment between rows', 'INSERT INTO t VALUES (1), /* c */ (2)'],
    ['a line comment', 'INSERT INTO t VALUES (1) -- c\n'],
    ['a double minus', 'INSERT INTO t VALUES (--1)'],
    ['ON DUPLICATE KEY UPDATE', 'INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 1'],
    ['a second statement', 'INSERT INTO t VALUES (1); SELECT 1'],
    ['an unterminated string', "INSERT INTO t VALUES ('a"],
    ['a missing parenthesis', 'INSERT INTO t VALUES (1, 2'],
    ['INSERT ... SET', 'INSERT INTO t SET a = 1'],
    ['INSERT ... SELECT', 'INSERT INTO t SELECT 1'],
    ['another statement', 'UPDATE t SET a = 1'],
    ['an identifier starting with digits', 'INSERT INTO t VALUES (1abc)'],
  ])('leaves %s to the token path', (_what, sql) => {
    expect(parseBulkInsert(sql)).toBeUndefined();
  });

  it('is what the statement cache uses for large INSERTs, with the same errors otherwise', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `(${i}, 'c-${i}', NULL)`).join(',');
    const sql = `INSERT INTO t (a, b, c) VALUES ${rows}`;
    const cache = new StatementCache();
    const parsed = cache.parse(sql);
    expect(parsed.digest).toBeNull();
    expect(parsed.stmt).toEqual(tokenPath(sql));
    expect(cache.size).toBe(0);
    const broken = `INSERT INTO t (a, b, c) VALUES ${rows}, (1, 'x'`;
    expect(() => cache.parse(broken)).toThrow(/You have an error in your SQL syntax/);
  });
});
