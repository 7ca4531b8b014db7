import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/types/index.js';
import fc from 'fast-check';
import { scanString, tokenize } from '../../../src/sql/parse/lexer.js';
import { countPlaceholders, splitStatements } from '../../../src/sql/parse/index.js';

const values = (sql: string) => tokenize(sql).map((t) => t.value);

describe('lexer', () => {
  it('lexes strings with MySQL escapes', () => {
    expect(values(`'a''b' 'c\\'d' "e""f" '\\0\\b\\n\\r\\t\\Z\\\\\\%\\_\\q'`)).toEqual([
      "a'b", "c'd", 'e"f', '\0\b\n\r\t\x1a\\\\%\\_q',
    ]);
  });
  it('lexes numbers, hex, bit', () => {
    const [a, b, c, d, e, f] = values("12 1.50 1e3 X'0aFF' 0x1f b'101'");
    expect(a).toBe(12n);
    expect(b).toBeInstanceOf(Decimal);
    expect(String(b)).toBe('1.5');
    expect(c).toBe(1000);
    expect(d).toEqual(new Uint8Array([0x0a, 0xff]));
    expect(e).toEqual(new Uint8Array([0x1f]));
    expect(f).toEqual(new Uint8Array([5]));
  });
  it('unescapes backtick identifiers and skips comments; keeps executable comments', () => {
    const toks = tokenize('SELECT `a``b` -- x\n# y\n/* z */ /*! ENGINE */ /*!80000 X */ FROM t');
    expect(toks.map((t) => (t.type === 'qident' ? t.value : t.text))).toEqual(['SELECT', 'a`b', 'ENGINE', 'X', 'FROM', 't']);
  });
  it('lexes variables and placeholders', () => {
    expect(tokenize('@@session.x @u ? :=').map((t) => t.type)).toEqual(['var', 'var', 'param', 'op']);
  });
  it('rejects an unterminated string with 1064', () => {
    expect(() => tokenize("SELECT 'abc")).toThrow(/near ''abc' at line 1/);
  });
});

describe('splitStatements / countPlaceholders', () => {
  it('splits outside strings, comments and backticks', () => {
    expect(splitStatements("SELECT ';' ; SELECT `a;b`; -- c;d\nSELECT 3;\n")).toEqual(["SELECT ';'", 'SELECT `a;b`', '-- c;d\nSELECT 3']);
    expect(splitStatements('SELECT 1;')).toEqual(['SELECT 1']);
    expect(splitStatements(' ; ; ')).toEqual([]);
    expect(splitStatements('CREATE TABLE t (a int) /*! ENGINE=x */;\nINSERT INTO t VALUES (1);\n')).toEqual([
      'CREATE TABLE t (a int) /*! ENGINE=x */',
      'INSERT INTO t VALUES (1)',
    ]);
  });
  it('counts ? outside strings and comments', () => {
    expect(countPlaceholders("SELECT ?, '?', `?`, /* ? */ ? -- ?\n")).toBe(2);
    expect(countPlaceholders("INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, ?, '?', '?')")).toBe(1);
  });
});

/** The lexer's string rule one character at a time (what scanString's run-at-a-time loop must match). */
function stringByChars(s: string, start: number): { value: string; end: number } | undefined {
  const escapes: Record<string, string> = { '0': '\0', "'": "'", '"': '"', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a', '\\': '\\', '%': '\\%', _: '\\_' };
  const q = s[start];
  let out = '';
  for (let i = start + 1; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '\\') {
      if (i + 1 >= s.length) return undefined;
      const e = s[++i] as string;
      out += escapes[e] ?? e;
    } else if (ch === q) {
      if (s[i + 1] !== q) return { value: out, end: i + 1 };
      out += q;
      i++;
    } else out += ch;
  }
  return undefined;
}

describe('scanString', () => {
  it('matches the character-at-a-time rule on any text', () => {
    const text = fc.string({ unit: fc.constantFrom("'", '"', '\\', 'a', 'n', '0', '%', ' ', 'é') });
    fc.assert(
      fc.property(fc.constantFrom("'", '"'), text, (quote, body) => {
        const sql = quote + body;
        expect(scanString(sql, 0)).toEqual(stringByChars(sql, 0));
      }),
      { numRuns: 2000 },
    );
  });
});
