import { describe, expect, it } from 'vitest';
import { parseStatement, type Expr, type SelectStmt, type Statement } from '../../../src/sql/parse/index.js';
import { Decimal } from '../../../src/types/index.js';

const p = (sql: string): Statement => parseStatement(sql).stmt;
const sel = (sql: string): SelectStmt => {
  const s = p(sql);
  if (s.kind !== 'select') throw new Error(`not a select: ${s.kind}`);
  return s;
};
const item = (sql: string, i = 0): Expr => {
  const it = sel(sql).items[i];
  if (it?.kind !== 'expr') throw new Error('not an expr item');
  return it.expr;
};
const col = (name: string, table?: string): Expr => (table ? { kind: 'column', name, table } : { kind: 'column', name });
const lit = (value: bigint | string | null): Expr => ({ kind: 'literal', value });
const param = (index: number): Expr => ({ kind: 'param', index });

describe('sysbench run statements (prepared forms)', () => {
  it('point select', () => {
    const r = parseStatement('SELECT c FROM sbtest1 WHERE id=?');
    expect(r.paramCount).toBe(1);
    expect(r.stmt).toEqual({
      kind: 'select', distinct: false, items: [{ kind: 'expr', expr: col('c'), text: 'c' }],
      from: { kind: 'table', table: { name: 'sbtest1' } }, where: { kind: 'binary', op: '=', left: col('id'), right: param(0) },
      groupBy: [], orderBy: [],
    });
  });
  it('ranges, SUM, ORDER BY, DISTINCT', () => {
    expect(sel('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?').where).toEqual({ kind: 'between', expr: col('id'), low: param(0), high: param(1), not: false });
    expect(item('SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?')).toEqual({ kind: 'agg', name: 'SUM', arg: col('k'), distinct: false });
    expect(sel('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c').orderBy).toEqual([{ expr: col('c'), desc: false }]);
    const d = sel('SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c');
    expect(d.distinct).toBe(true);
  });
  it('updates, delete, insert', () => {
    expect(p('UPDATE sbtest1 SET k=k+1 WHERE id=?')).toEqual({
      kind: 'update', table: { name: 'sbtest1' }, set: [{ column: 'k', value: { kind: 'binary', op: '+', left: col('k'), right: lit(1n) } }],
      where: { kind: 'binary', op: '=', left: col('id'), right: param(0) }, orderBy: [], ignore: false,
    });
    const u = p('UPDATE sbtest1 SET c=? WHERE id=?');
    expect(u.kind === 'update' && u.set[0]?.value).toEqual(param(0));
    expect(p('DELETE FROM sbtest1 WHERE id=?')).toEqual({ kind: 'delete', table: { name: 'sbtest1' }, where: { kind: 'binary', op: '=', left: col('id'), right: param(0) }, orderBy: [] });
    expect(p('INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)')).toEqual({
      kind: 'insert', table: { name: 'sbtest1' }, columns: ['id', 'k', 'c', 'pad'], rows: [[param(0), param(1), param(2), param(3)]],
      ignore: false, replace: false, onDuplicate: [],
    });
    const ins = p("INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, ?, '?', '?')");
    expect(ins.kind === 'insert' && ins.rows[0]).toEqual([lit(0n), param(0), lit('?'), lit('?')]);
    expect(p('BEGIN')).toEqual({ kind: 'begin', readOnly: false });
    expect(p('COMMIT')).toEqual({ kind: 'commit' });
  });
});

describe('mysql CLI statements', () => {
  it('labels items with their original text', () => {
    const texts = (sql: string) => sel(sql).items.map((i) => (i.kind === 'expr' ? i.text : '*'));
    expect(texts('select @@version_comment limit 1')).toEqual(['@@version_comment']);
    expect(texts('SELECT DATABASE()')).toEqual(['DATABASE()']);
    expect(texts('select DATABASE(), USER() limit 1')).toEqual(['DATABASE()', 'USER()']);
    expect(texts('select @@character_set_client, @@character_set_connection, @@character_set_server, @@character_set_database limit 1'))
      .toEqual(['@@character_set_client', '@@character_set_connection', '@@character_set_server', '@@character_set_database']);
    expect(texts('SELECT 1+1, a  +  b, count(*) FROM t')).toEqual(['1+1', 'a  +  b', 'count(*)']);
    expect(item('select @@version_comment limit 1')).toEqual({ kind: 'variable', scope: 'default', name: 'version_comment' });
    expect(sel('select @@version_comment limit 1').limit).toEqual({ count: lit(1n) });
    expect(p('show databases')).toEqual({ kind: 'show', target: 'databases', full: false, global: false });
    expect(p('show tables')).toEqual({ kind: 'show', target: 'tables', full: false, global: false });
  });
});

describe('SELECT features', () => {
  it('variables', () => {
    expect(item('SELECT @@session.Autocommit')).toEqual({ kind: 'variable', scope: 'session', name: 'autocommit' });
    expect(item('SELECT @@GLOBAL.version')).toEqual({ kind: 'variable', scope: 'global', name: 'version' });
    expect(item('SELECT @@global.x')).toEqual({ kind: 'variable', scope: 'global', name: 'x' });
    expect(item('SELECT @u')).toEqual({ kind: 'variable', scope: 'user', name: 'u' });
  });
  it('star, aliases, literals', () => {
    const s = sel('SELECT t.*, a AS x, b y, -5, 1.5, TRUE, NULL, x\'ff\' FROM t');
    expect(s.items[0]).toEqual({ kind: 'star', table: 't' });
    expect(s.items[1]).toMatchObject({ alias: 'x', expr: col('a') });
    expect(s.items[2]).toMatchObject({ alias: 'y', expr: col('b') });
    expect(s.items[3]).toMatchObject({ expr: lit(-5n), text: '-5' });
    const dec = s.items[4];
    expect(dec?.kind === 'expr' && dec.expr.kind === 'literal' && dec.expr.value instanceof Decimal).toBe(true);
    expect(s.items[5]).toMatchObject({ expr: lit(1n) });
    expect(s.items[6]).toMatchObject({ expr: lit(null) });
    expect(s.items[7]).toMatchObject({ expr: { kind: 'literal', value: new Uint8Array([255]) } });
    expect(sel('SELECT * FROM t').items).toEqual([{ kind: 'star' }]);
  });
  it('predicates', () => {
    const w = (cond: string) => sel(`SELECT a FROM t WHERE ${cond}`).where;
    expect(w('a IS NOT NULL')).toEqual({ kind: 'isNull', expr: col('a'), not: true });
    expect(w('a IS TRUE')).toEqual({ kind: 'isBool', expr: col('a'), value: true, not: false });
    expect(w('a NOT IN (1, 2)')).toEqual({ kind: 'in', expr: col('a'), list: [lit(1n), lit(2n)], not: true });
    expect(w("a LIKE 'x%' ESCAPE '!'")).toEqual({ kind: 'like', expr: col('a'), pattern: lit('x%'), escape: lit('!'), not: false });
    expect(w('a = 1 AND NOT b OR c XOR d')).toMatchObject({ kind: 'binary', op: 'OR' });
    expect(w('a != 1')).toMatchObject({ op: '<>' });
    expect(w('a IN (SELECT b FROM u)')).toMatchObject({ kind: 'inSubquery', not: false, query: { kind: 'select' } });
    expect(w('EXISTS (SELECT 1 FROM u)')).toMatchObject({ kind: 'exists', not: false });
    expect(w('NOT EXISTS (SELECT 1 FROM u)')).toMatchObject({ kind: 'exists', not: true });
    expect(w('a = (SELECT MAX(b) FROM u)')).toMatchObject({ right: { kind: 'subquery' } });
  });
  it('expressions', () => {
    expect(item('SELECT -a * (b + 2) DIV 3 % 4')).toMatchObject({ kind: 'binary', op: '%' });
    expect(item('SELECT CASE WHEN a THEN 1 ELSE 2 END')).toEqual({ kind: 'case', whens: [{ when: col('a'), then: lit(1n) }], else: lit(2n) });
    expect(item('SELECT CASE a WHEN 1 THEN 2 END')).toEqual({ kind: 'case', operand: col('a'), whens: [{ when: lit(1n), then: lit(2n) }] });
    expect(item('SELECT CAST(a AS UNSIGNED)')).toMatchObject({ kind: 'cast', to: { kind: 'bigint', unsigned: true } });
    expect(item('SELECT CAST(a AS DECIMAL(10,2))')).toMatchObject({ kind: 'cast', to: { kind: 'decimal', length: 10, scale: 2 } });
    expect(item('SELECT CONVERT(a, CHAR(5))')).toMatchObject({ kind: 'cast', to: { kind: 'varchar', length: 5 } });
    expect(item("SELECT CONCAT(a, 'x', LAST_INSERT_ID())")).toMatchObject({ kind: 'func', name: 'CONCAT' });
    expect(item('SELECT COUNT(*)')).toEqual({ kind: 'agg', name: 'COUNT', arg: null, distinct: false });
    expect(item('SELECT COUNT(DISTINCT a)')).toEqual({ kind: 'agg', name: 'COUNT', arg: col('a'), distinct: true });
    for (const f of ['AVG', 'MIN', 'MAX']) expect(item(`SELECT ${f}(a) FROM t`)).toMatchObject({ kind: 'agg', name: f });
    expect(item("SELECT GROUP_CONCAT(DISTINCT a ORDER BY b SEPARATOR ';')")).toEqual({
      kind: 'agg', name: 'GROUP_CONCAT', arg: col('a'), distinct: true, separator: ';', orderBy: [{ expr: col('b'), desc: false }],
    });
    expect(item('SELECT DATE_ADD(d, INTERVAL 1 DAY)')).toMatchObject({ args: [col('d'), { kind: 'interval', expr: lit(1n), unit: 'DAY' }] });
  });
  it('GROUP BY, HAVING, ORDER BY, LIMIT forms, locks, DUAL', () => {
    const s = sel('SELECT a, COUNT(*) c FROM t GROUP BY a HAVING c > 1 ORDER BY c DESC, 1 LIMIT 5 OFFSET 10 FOR UPDATE');
    expect(s.groupBy).toEqual([col('a')]);
    expect(s.having).toMatchObject({ op: '>' });
    expect(s.orderBy).toEqual([{ expr: col('c'), desc: true }, { expr: lit(1n), desc: false }]);
    expect(s.limit).toEqual({ count: lit(5n), offset: lit(10n) });
    expect(s.lock).toBe('update');
    expect(sel('SELECT a FROM t LIMIT 3, 4').limit).toEqual({ count: lit(4n), offset: lit(3n) });
    expect(sel('SELECT a FROM t LIMIT ?, ?').limit).toEqual({ count: param(1), offset: param(0) });
    expect(sel('SELECT a FROM t LOCK IN SHARE MODE').lock).toBe('share');
    expect(sel('SELECT a FROM t FOR SHARE').lock).toBe('share');
    expect(sel('SELECT 1 FROM DUAL').from).toBeNull();
  });
  it('joins, derived tables, UNION', () => {
    const s = sel('SELECT * FROM a JOIN b ON a.x = b.x LEFT JOIN c USING (y) CROSS JOIN d, e AS ee');
    expect(s.from).toMatchObject({
      kind: 'join', joinType: 'cross', right: { kind: 'table', table: { name: 'e' }, alias: 'ee' },
      left: { kind: 'join', joinType: 'cross', left: { kind: 'join', joinType: 'left', using: ['y'], left: { kind: 'join', joinType: 'inner', on: { op: '=' } } } },
    });
    expect(sel('SELECT * FROM a RIGHT JOIN b ON 1').from).toMatchObject({ joinType: 'right' });
    const d = sel('SELECT x.o FROM (SELECT 1+1 AS o, 2+2) x');
    expect(d.from).toMatchObject({ kind: 'derived', alias: 'x', query: { items: [{ alias: 'o' }, { text: '2+2' }] } });
    const u = sel('SELECT a FROM t UNION ALL SELECT b FROM u UNION SELECT c FROM v ORDER BY 1 LIMIT 2');
    expect(u.union?.map((x) => x.all)).toEqual([true, false]);
    expect(u.limit).toEqual({ count: lit(2n) });
    expect(u.union?.[1]?.select.limit).toBeUndefined();
  });
  it('trailing semicolons and comments', () => {
    expect(sel('SELECT 1;').items).toHaveLength(1);
    expect(sel('SELECT 1;\n').items).toHaveLength(1);
    expect(sel('/* hi */ SELECT 1 -- x').items).toHaveLength(1);
  });
  it('numbers params in text order', () => {
    const r = parseStatement('SELECT ? AS a FROM t WHERE x = ? AND y IN (?, ?) LIMIT ?');
    expect(r.paramCount).toBe(5);
    expect(sel('SELECT ? AS a FROM t WHERE x = ? AND y IN (?, ?) LIMIT ?').limit).toEqual({ count: param(4) });
  });
});

describe('INSERT / UPDATE / DELETE forms', () => {
  it('INSERT variants', () => {
    expect(p('INSERT IGNORE INTO t VALUES (1, DEFAULT, NULL, -2), (2, 3, TRUE, FALSE)')).toMatchObject({
      ignore: true, columns: [], rows: [[lit(1n), { kind: 'default' }, lit(null), lit(-2n)], [lit(2n), lit(3n), lit(1n), lit(0n)]],
    });
    expect(p('REPLACE INTO t (a) VALUES (1)')).toMatchObject({ replace: true, columns: ['a'] });
    expect(p("INSERT INTO t SET a = 1, b = 'x'")).toMatchObject({ columns: ['a', 'b'], rows: [[lit(1n), lit('x')]] });
    expect(p('INSERT INTO t (a, b) VALUES (1, NOW()) ON DUPLICATE KEY UPDATE b = VALUES(b), a = a + 1')).toMatchObject({
      rows: [[lit(1n), { kind: 'func', name: 'NOW', args: [] }]],
      onDuplicate: [{ column: 'b', value: { kind: 'valuesRef', column: 'b' } }, { column: 'a' }],
    });
    expect(p('INSERT INTO t (a) SELECT b FROM u WHERE c = 1')).toMatchObject({ rows: [], select: { kind: 'select' } });
    expect(p('INSERT INTO `Users` (`id`,`name`) VALUES (DEFAULT,?);')).toMatchObject({ table: { name: 'Users' }, rows: [[{ kind: 'default' }, param(0)]] });
    expect(p('INSERT INTO db1.t VALUES (CONCAT(?, DEFAULT))')).toMatchObject({ table: { db: 'db1', name: 't' } });
  });
  it('UPDATE / DELETE with ORDER BY and LIMIT', () => {
    expect(p('UPDATE t SET a = DEFAULT, b = 2 WHERE c = 1 ORDER BY d LIMIT 3')).toMatchObject({
      set: [{ column: 'a', value: { kind: 'default' } }, { column: 'b' }], orderBy: [{ expr: col('d') }], limit: { count: lit(3n) },
    });
    expect(p('DELETE FROM t WHERE a > 1 ORDER BY a DESC LIMIT 10')).toMatchObject({ orderBy: [{ desc: true }], limit: { count: lit(10n) } });
  });
});

describe('errors', () => {
  it('1064 with MySQL near-text and line', () => {
    expect(() => p('SELECT * FORM t')).toThrow("near 'FORM t' at line 1");
    expect(() => p('SELECT 1 FROM')).toThrow("near '' at line 1");
    expect(() => p('SELECT a\nFROM t WHERE WHERE')).toThrow(/at line 2/);
    expect(() => p('FOO BAR')).toThrow("near 'FOO BAR' at line 1");
    expect(() => p('SELECT 1; SELECT 2')).toThrow("near 'SELECT 2' at line 1");
    const long = `SELECT * FROM t WHERE ${'x'.repeat(200)} ${'y'.repeat(10)}`;
    try {
      p(long.replace('WHERE', 'WHER E'));
    } catch (e) {
      expect((e as Error).message).toMatch(/near '.{80}' at line 1/);
    }
  });
  it('1065 on empty, 1235 on unsupported', () => {
    expect(() => p('  -- nothing\n')).toThrow('Query was empty');
    expect(() => p('ALTER TABLE t PARTITION BY HASH(c)')).toThrow(/doesn't yet support/);
  });
});
