import fc from 'fast-check';

/** Literal-rows INSERT texts of every shape the bulk path takes (bulk-insert*.test.ts). */
const space = fc.constantFrom('', ' ', '  ', '\n', '\t', ' \r\n ');
export const quoted = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', "'", '"', '\\', 'n', '%', '_', 'é', '😀', '\n') }).map((s) => {
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
export const insert = fc
  .tuple(fc.constantFrom('INSERT INTO', 'insert', 'REPLACE INTO', 'INSERT IGNORE INTO'), fc.constantFrom('t', '`t`', 'db.t'), fc.constantFrom('', '(a, b)', ' (`c`)'), fc.constantFrom('VALUES', 'values', 'VALUE'), fc.array(fc.tuple(space, row), { minLength: 1, maxLength: 6 }), fc.constantFrom('', ';', ' ; ;\n'))
  .map(([verb, table, cols, kw, rows, tail]) => `${verb} ${table}${cols} ${kw}${rows.map(([s, r]) => s + r).join(',')}${tail}`);
