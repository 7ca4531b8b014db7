/** normalizeStatement: statement text for logs, with no literal left in it. */
import { describe, expect, it } from 'vitest';
import { normalizeStatement } from '../../../src/sql/parse/index.js';
import { MAX_NORMALIZED_LENGTH } from '../../../src/sql/parse/normalize.js';

describe('normalizeStatement', () => {
  it('replaces every literal, including select-list labels, hex and bit values', () => {
    expect(normalizeStatement("SELECT 'secret', 0x1f, b'01', 1.5e3, -2 FROM t WHERE c = \"dq\"")).toBe('SELECT ?, ?, ?, ?, -? FROM t WHERE c = ?');
    expect(normalizeStatement("SET PASSWORD = 'pw'")).toBe('SET PASSWORD = ?');
    expect(normalizeStatement("CREATE USER 'bob'@'%' IDENTIFIED BY 'pw'")).toBe("CREATE USER ?@'%' IDENTIFIED BY ?"); // the host lexes as @'%' (a variable name)
  });

  it('drops comments and trailing semicolons, and collapses whitespace', () => {
    expect(normalizeStatement('select  a /* note */\n from\tt -- tail\n where b=1;')).toBe('select a from t where b=?');
  });

  it('collapses value lists and rows whatever their length', () => {
    expect(normalizeStatement('SELECT * FROM t WHERE id IN (1, 2, 3)')).toBe('SELECT * FROM t WHERE id IN (...)');
    expect(normalizeStatement('SELECT * FROM t WHERE id IN (?, ?)')).toBe('SELECT * FROM t WHERE id IN (...)');
    expect(normalizeStatement("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")).toBe('INSERT INTO t VALUES (...) /* , ... */');
    expect(normalizeStatement('INSERT INTO t (id) VALUES (1), (2)')).toBe('INSERT INTO t (id) VALUES (?) /* , ... */');
    expect(normalizeStatement('CREATE TABLE t (c VARCHAR(20))')).toBe('CREATE TABLE t (c VARCHAR(?))');
  });

  it('shows nothing of an unterminated literal, and bounds the length', () => {
    expect(normalizeStatement("SELECT 'unterminated")).toBe('?');
    const long = normalizeStatement(`SELECT ${Array.from({ length: 600 }, (_, i) => `c${i}`).join(', ')} FROM t`);
    expect(long.length).toBe(MAX_NORMALIZED_LENGTH);
    expect(long.endsWith('...')).toBe(true);
  });
});
