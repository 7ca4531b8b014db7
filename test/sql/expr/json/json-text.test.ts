import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JsonSyntaxError, compareJson, prettyJson, findAll, parseJson, parsePath, serializeJson, setPath, removePath, mergePatch, mergePreserve,
  jsonContains, jsonEquals, type JsonValue,
} from '../../../../src/sql/expr/json/index.js';
import { SqlError } from '../../../../src/errors/index.js';

const jsonArb: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
    fc.string({ unit: 'binary' }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.string(), tie('v')), { maxLength: 4 }).map((es) => new Map(es)),
  ),
})).v;

function norm(text: string): string {
  return serializeJson(parseJson(text));
}

function syntaxError(text: string): string {
  try {
    parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return `${e.reason} @${e.position}`;
    throw e;
  }
  return 'ok';
}

describe('JSON text', () => {
  it('round-trips: parse(serialize(x)) equals x and re-serializes identically', () => {
    fc.assert(
      fc.property(jsonArb, (x) => {
        const text = serializeJson(x);
        const back = parseJson(text);
        expect(compareJson(back, x)).toBe(0);
        expect(serializeJson(back)).toBe(text);
      }),
    );
  });

  it('prints as MySQL 8.0 does', () => {
    expect(norm('{"b":[1,2],"a":1}')).toBe('{"a": 1, "b": [1, 2]}');
    expect(norm('{"bb":1,"a":2,"c":3}')).toBe('{"a": 2, "c": 3, "bb": 1}');
    expect(norm('{"a":1,"a":2}')).toBe('{"a": 2}');
    expect(norm('[1.0, 1e2, 0.5, -3, 1.5e300, 18446744073709551615, 18446744073709551616]')).toBe(
      '[1.0, 100.0, 0.5, -3, 1.5e300, 18446744073709551615, 1.8446744073709552e19]',
    );
    expect(norm('"a\\u0001\\n\\/é"')).toBe('"a\\u0001\\n/é"');
    expect(norm(' [ ] ')).toBe('[]');
    expect(norm('{}')).toBe('{}');
    expect(prettyJson(parseJson('{"b":[1,{}],"a":[]}'))).toBe('{\n  "a": [],\n  "b": [\n    1,\n    {}\n  ]\n}');
  });

  it('reports rapidjson messages and byte offsets', () => {
    expect(syntaxError('')).toBe('The document is empty. @0');
    expect(syntaxError('abc')).toBe('Invalid value. @0');
    expect(syntaxError('[1,]')).toBe('Invalid value. @3');
    expect(syntaxError('[1 2]')).toBe("Missing a comma or ']' after an array element. @3");
    expect(syntaxError('{"a" 1}')).toBe('Missing a colon after a name of object member. @5');
    expect(syntaxError('{"a":1,}')).toBe('Missing a name for object member. @7');
    expect(syntaxError('{"a":1 "b"}')).toBe("Missing a comma or '}' after an object member. @7");
    expect(syntaxError('"abc')).toBe('Missing a closing quotation mark in string. @4');
    expect(syntaxError('"\\x"')).toBe('Invalid escape character in string. @1');
    expect(syntaxError('1 2')).toBe('The document root must not be followed by other values. @2');
    expect(syntaxError('1.')).toBe('Miss fraction part in number. @2');
    expect(syntaxError('1e')).toBe('Miss exponent in number. @2');
    expect(syntaxError('tru')).toBe('Invalid value. @3');
    expect(syntaxError('"é" x')).toBe('The document root must not be followed by other values. @5');
  });

  it('refuses documents deeper than 100', () => {
    expect(() => parseJson('['.repeat(101) + ']'.repeat(101))).toThrow(SqlError);
    expect(norm('['.repeat(100) + ']'.repeat(100))).toBe('['.repeat(100) + ']'.repeat(100));
  });
});

describe('JSON paths', () => {
  const doc = parseJson('{"a": {"b": [10, 20, {"c": 1}]}, "x y": 5, "b": 7}');
  const values = (path: string): string[] => findAll(doc, parsePath(path)).map((l) => serializeJson(l.value));

  it('selects members, cells, ranges and wildcards', () => {
    expect(values('$.a.b[1]')).toEqual(['20']);
    expect(values('$.a.b[last]')).toEqual(['{"c": 1}']);
    expect(values('$.a.b[last-1]')).toEqual(['20']);
    expect(values('$.a.b[0 to 1]')).toEqual(['10', '20']);
    expect(values('$."x y"')).toEqual(['5']);
    expect(values('$.*')).toEqual(['{"b": [10, 20, {"c": 1}]}', '7', '5']);
    expect(values('$.a.b[*]')).toEqual(['10', '20', '{"c": 1}']);
    expect(values('$**.c')).toEqual(['1']);
    expect(values('$**.b')).toEqual(['7', '[10, 20, {"c": 1}]']);
    expect(values('$.b[0]')).toEqual(['7']);
    expect(values('$.b[1]')).toEqual([]);
    expect(values(' $ . a ')).toEqual(['{"b": [10, 20, {"c": 1}]}']);
  });

  it('reports the error position as MySQL', () => {
    const pos = (p: string): string => {
      try {
        parsePath(p);
        return 'ok';
      } catch (e) {
        return e instanceof SqlError ? e.message : String(e);
      }
    };
    expect(pos('a')).toBe('Invalid JSON path expression. The error is around character position 1.');
    expect(pos('$.')).toBe('Invalid JSON path expression. The error is around character position 2.');
    expect(pos('$**')).toContain('position 3');
    expect(pos('$[')).toContain('Invalid JSON path');
  });
});

describe('JSON edits', () => {
  const edit = (text: string, f: (d: JsonValue) => JsonValue): string => serializeJson(f(parseJson(text)));
  it('set / insert / replace / remove', () => {
    expect(edit('{"a":1}', (d) => setPath(d, parsePath('$.b'), 2n, 'set'))).toBe('{"a": 1, "b": 2}');
    expect(edit('{"a":1}', (d) => setPath(d, parsePath('$.a'), 2n, 'insert'))).toBe('{"a": 1}');
    expect(edit('{"a":1}', (d) => setPath(d, parsePath('$.b'), 2n, 'replace'))).toBe('{"a": 1}');
    expect(edit('[1,2]', (d) => setPath(d, parsePath('$[5]'), 3n, 'set'))).toBe('[1, 2, 3]');
    expect(edit('{"a":1}', (d) => setPath(d, parsePath('$.a[1]'), 2n, 'set'))).toBe('{"a": [1, 2]}');
    expect(edit('{"a":1}', (d) => setPath(d, parsePath('$.a[0]'), 2n, 'set'))).toBe('{"a": 2}');
    expect(edit('[1,2,3]', (d) => removePath(d, parsePath('$[1]')))).toBe('[1, 3]');
    expect(edit('{"a":1}', (d) => removePath(d, parsePath('$.a[0]')))).toBe('{"a": 1}');
  });
  it('merges and containment', () => {
    expect(serializeJson(mergePatch(parseJson('{"a":1,"b":2}'), parseJson('{"a":null,"c":3}')))).toBe('{"b": 2, "c": 3}');
    expect(serializeJson(mergePreserve(parseJson('{"a":1}'), parseJson('{"a":2}')))).toBe('{"a": [1, 2]}');
    expect(serializeJson(mergePreserve(parseJson('[1]'), parseJson('2')))).toBe('[1, 2]');
    expect(jsonContains(parseJson('{"a":[1,2]}'), parseJson('{"a":1}'), jsonEquals)).toBe(true);
    expect(jsonContains(parseJson('[1,2]'), parseJson('[2,1.0]'), jsonEquals)).toBe(true);
    expect(jsonContains(parseJson('[1,2]'), parseJson('3'), jsonEquals)).toBe(false);
  });
});
