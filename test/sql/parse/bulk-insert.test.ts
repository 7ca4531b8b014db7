import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBulkInsert } from '../../../src/sql/parse/bulk-insert.js';
import { parseTokens, statementTokens } from '../../../src/sql/parse/parse-statement.js';
import { StatementCache } from '../../../src/sql/parse/statement-cache.js';

/** What the token path makes of `sql` (the statement the bulk path must reproduce). */
const tokenPath = (sql: string) => parseTokens(sql, statementTokens(sql), false).stmt;

const space = fc.constantFrom('', ' ', '  ', '\n', '\t', ' \r\n ');
const quoted = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', "'", '"', '\\', 'n', '%', '_', 'é', '😀', '\n') }).map((s) => {
  const body = s.replace(/\\/g, '\\\\').replace(/'/g, "''");
  return `'${body}'`;
});
const dquoted = fc.string({ unit: fc.constantFrom('x', '"', "'", '\\') }).map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
const number = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
  fc.tuple(fc.nat(99999), fc.nat(999)).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.nat(999), fc.integer({ min: -30, max: 30 })).map(([a, e]) => `${a}e${e}`),
  fc.nat(999).map((n) => `.${n}`),
  fc.nat(99).map((n) => `${n}.`),
);
const signed = fc.tuple(fc.constantFrom('-', '+', '- ', '+ '), number).map(([s, n]) => s + n);
const word = fc.constantFrom('NULL', 'null', 'Null', 'TRUE', 'false', 'DEFAULT', 'default');
const value = fc.oneof(quoted, dquoted, number, signed, word);
const row = fc.array(fc.tuple(space, value, space), { minLength: 1, maxLength: 5 }).map((vs) => `(${vs.map(([a, v, b]) => a + v + b).join(',')})`);
const insert = fc
  .tuple(fc.constantFrom('INSERT INTO', 'insert', 'REPLACE INTO', 'INSERT IGNORE INTO'), fc.constantFrom('t', '`t`', 'db.t'), fc.constantFrom('', '(a, b)', ' (`c`)'), fc.constantFrom('VALUES', 'values', 'VALUE'), fc.array(fc.tuple(space, row), { minLength: 1, maxLength: 6 }), fc.constantFrom('', ';', ' ; ;\n'))
  .map(([verb, table, cols, kw, rows, tail]) => `${verb} ${table}${cols} ${kw}${rows.map(([s, r]) => s + r).join(',')}${tail}`);

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
