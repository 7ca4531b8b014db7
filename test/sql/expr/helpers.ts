/** A fake Scope/EvalContext and tiny AST builders for the expr tests. */
import type { Expr } from '../../../src/sql/parse/ast.js';
import { compileExpr, type EvalContext, type Scope } from '../../../src/sql/expr/index.js';
import { DateTime, Decimal, makeType, type ColumnType, type Value } from '../../../src/types/index.js';
import { SqlError } from '../../../src/errors/index.js';

export interface Warning {
  readonly code: number;
  readonly message: string;
}

export interface FakeContext extends EvalContext {
  readonly warnings: Warning[];
}

export function fakeContext(opts: { params?: Value[]; strict?: boolean; vars?: Record<string, Value> } = {}): FakeContext {
  const warnings: Warning[] = [];
  const vars: Record<string, Value> = { version: '8.0.11-shale-0.1.0', autocommit: 1n, ...opts.vars };
  return {
    params: opts.params ?? [],
    warnings,
    strict: opts.strict ?? true,
    getVariable(_scope, name) {
      const v = vars[name];
      if (v === undefined) throw SqlError.of('ER_UNKNOWN_SYSTEM_VARIABLE', name);
      return v;
    },
    lastInsertId: () => 42n,
    rowCount: () => 3n,
    foundRows: () => 7n,
    currentDatabase: () => 'test',
    currentUser: () => 'root@127.0.0.1',
    connectionId: () => 5,
    now: () => new DateTime('datetime', 2024, 2, 29, 13, 14, 15, 123456, 6),
    warn(code, message) {
      warnings.push({ code, message });
    },
  };
}

export const T = {
  int: makeType('int'),
  intU: makeType('int', { unsigned: true }),
  bigint: makeType('bigint'),
  bigintU: makeType('bigint', { unsigned: true }),
  tinyint: makeType('tinyint'),
  dec: (m: number, d: number): ColumnType => makeType('decimal', { length: m, scale: d }),
  double: makeType('double'),
  float: makeType('float'),
  char: (n: number): ColumnType => makeType('char', { length: n }),
  varchar: (n: number): ColumnType => makeType('varchar', { length: n }),
  text: makeType('text'),
  tinytext: makeType('text', { lob: 'tiny' }),
  binary: (n: number): ColumnType => makeType('binary', { length: n }),
  varbinary: (n: number): ColumnType => makeType('varbinary', { length: n }),
  blob: makeType('blob'),
  date: makeType('date'),
  datetime: (fsp = 0): ColumnType => makeType('datetime', { scale: fsp }),
  timestamp: makeType('timestamp'),
  time: (fsp = 0): ColumnType => makeType('time', { scale: fsp }),
  year: makeType('year'),
  json: makeType('json'),
};

/** Columns of the fake table `t`, row offsets in order. */
export const COLUMNS: ReadonlyArray<{ name: string; type: ColumnType; notNull: boolean }> = [
  { name: 'id', type: T.int, notNull: true },
  { name: 'k', type: T.int, notNull: true },
  { name: 'c', type: T.char(120), notNull: true },
  { name: 'u', type: T.bigintU, notNull: false },
  { name: 'd', type: T.dec(10, 2), notNull: false },
  { name: 'f', type: T.double, notNull: false },
  { name: 'dt', type: T.datetime(), notNull: false },
  { name: 'n', type: T.int, notNull: false },
];

export const scope: Scope = {
  currentDatabase: 'test',
  resolve(ref) {
    if (ref.table !== undefined && ref.table !== 't') return undefined;
    const i = COLUMNS.findIndex((c) => c.name.toLowerCase() === ref.name.toLowerCase());
    const col = COLUMNS[i];
    return col === undefined ? undefined : { offset: i, type: col.type, notNull: col.notNull };
  },
};

export const ROW: Value[] = [1n, 5n, 'hello', 18446744073709551615n, new Decimal('12.34'), 2.5, new DateTime('datetime', 2020, 1, 31, 10, 0, 0), null];

// ---- AST builders --------------------------------------------------------------------------
export const lit = (value: Value): Expr => ({ kind: 'literal', value });
export const col = (name: string, table?: string): Expr => (table === undefined ? { kind: 'column', name } : { kind: 'column', table, name });
export const param = (index: number): Expr => ({ kind: 'param', index });
export const bin = (op: Extract<Expr, { kind: 'binary' }>['op'], left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right });
export const fn = (name: string, ...args: Expr[]): Expr => ({ kind: 'func', name, args });
export const interval = (expr: Expr, unit: string): Expr => ({ kind: 'interval', expr, unit });
export const dec = (s: string): Decimal => new Decimal(s);
export const NULL = lit(null);

/** Compiles and evaluates against ROW. */
export function run(e: Expr, ctx: EvalContext = fakeContext()): Value {
  return compileExpr(e, scope, 'field list')(ROW, ctx);
}

/** A comparable plain form of a value for `toEqual`. */
export function show(v: Value): unknown {
  if (v === null || typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string') return v;
  if (v instanceof Decimal) return `dec:${v.toFixed()}`;
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  return `${v.constructor.name}:${v.toString()}`;
}

/** The thrown SqlError as `errno: message`. */
export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return `${e.errno}: ${e.message}`;
    throw e;
  }
  return 'no error';
}
