/**
 * INSERT's new rows: VALUES expressions (or INSERT ... SELECT rows) mapped onto the table's
 * columns, omitted / DEFAULT columns from the column defaults, values coerced to the column
 * types, NOT NULL checked, and AUTO_INCREMENT ids filled from ONE allocAutoId call.
 */
import { columnDefaultValue, findColumn, type ColumnInfo, type TableInfo } from '../../catalog/index.js';
import type { Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { coerceToColumn, compileExpr, type Evaluator, type Scope } from '../expr/index.js';
import { EMPTY_SCHEMA } from '../plan/index.js';
import type { Expr, InsertStmt } from '../parse/index.js';
import type { ExecContext } from './context.js';
import { implicitZero, nullIntoNotNull } from './column-values.js';

/**
 * A VALUES item: an evaluator, DEFAULT (null), or a non-NULL literal's value itself (a bulk
 * INSERT's thousands of literals then need no closure each; a Value is never a function).
 */
export type ValueSource = Evaluator | null | Exclude<Value, null>;

export interface NewRows {
  readonly rows: Value[][];
  /** First generated AUTO_INCREMENT id, or null if none was generated. */
  readonly firstId: bigint | null;
  /** Per row: whether its handle was freshly generated (no PRIMARY check needed). */
  readonly generatedHandle: boolean[];
  /** Hidden row ids (tables without a primary key). */
  readonly rowIds: bigint[] | null;
}

export function targetColumns(table: TableInfo, names: readonly string[]): ColumnInfo[] {
  if (names.length === 0) return [...table.columns];
  const seen = new Set<number>();
  return names.map((name) => {
    const col = findColumn(table, name);
    if (col === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', name, 'field list');
    if (seen.has(col.offset)) throw SqlError.of('ER_FIELD_SPECIFIED_TWICE', col.name);
    seen.add(col.offset);
    return col;
  });
}

/** `scope`: the hidden subquery columns VALUES read (plan/builder-dml-subquery.ts), when any. */
export function compileValues(stmt: InsertStmt, width: number, rows: ReadonlyArray<readonly Expr[]> = stmt.rows, scope: Scope = EMPTY_SCHEMA): ValueSource[][] {
  return rows.map((row, i) => {
    if (row.length !== width) throw SqlError.of('ER_WRONG_VALUE_COUNT_ON_ROW', i + 1);
    return row.map((e) => {
      if (e.kind === 'literal' && e.value !== null) return e.value;
      return e.kind === 'default' && e.column === undefined ? null : compileExpr(e, scope, 'field list');
    });
  });
}

export class RowBuilder {
  private readonly autoInc: number;
  private readonly hiddenRowId: boolean;

  constructor(
    private readonly table: TableInfo,
    private readonly targets: readonly ColumnInfo[],
    private readonly ignore: boolean,
  ) {
    this.autoInc = table.autoIncrementOffset;
    this.hiddenRowId = table.handleKind === 'int' && !table.pkIsHandle;
  }

  /** Evaluates every source row into a full table row; allocates AUTO_INCREMENT / row ids. */
  async build(sources: ReadonlyArray<ReadonlyArray<ValueSource | Value>>, evaluated: boolean, ctx: ExecContext, input: readonly Value[] = []): Promise<NewRows> {
    const defaults = this.defaults(ctx);
    const multi = sources.length > 1;
    const rows: Value[][] = [];
    const needId: number[] = [];
    let maxExplicit = 0n;
    sources.forEach((src, r) => {
      const row = defaults.slice();
      for (let i = 0; i < this.targets.length; i++) {
        const col = this.targets[i] as ColumnInfo;
        const s = src[i] as ValueSource | Value;
        const raw = evaluated ? (s as Value) : s === null ? defaultOf(col, defaults, ctx) : typeof s === 'function' ? s(input, ctx) : s;
        row[col.offset] = this.store(col, raw, r + 1, multi, ctx);
      }
      const id = this.autoInc >= 0 ? row[this.autoInc] : undefined;
      const generates = id === null || id === 0n;
      if (generates) needId.push(r);
      else if (typeof id === 'bigint' && id > maxExplicit) maxExplicit = id;
      if (!generates) this.checkNotNull(row, multi, ctx);
      rows.push(row);
    });
    if (maxExplicit > 0n) await ctx.catalog.rebaseAutoId(this.table, maxExplicit);
    let firstId: bigint | null = null;
    if (needId.length > 0) {
      firstId = await ctx.catalog.allocAutoId(this.table, needId.length);
      needId.forEach((r, i) => ((rows[r] as Value[])[this.autoInc] = (firstId as bigint) + BigInt(i)));
    }
    const generated = rows.map(() => false);
    if (this.table.pkIsHandle) for (const r of needId) generated[r] = true;
    let rowIds: bigint[] | null = null;
    if (this.hiddenRowId && rows.length > 0) {
      const first = await ctx.catalog.allocAutoId(this.table, rows.length);
      rowIds = rows.map((_, i) => first + BigInt(i));
      generated.fill(true);
    }
    return { rows, firstId, generatedHandle: generated, rowIds };
  }

  private defaults(ctx: ExecContext): Value[] {
    const given = new Set(this.targets.map((c) => c.offset));
    return this.table.columns.map((col) => {
      if (given.has(col.offset)) return null;
      if (col.notNull && col.default.kind === 'none' && !col.autoIncrement && col.type.kind !== 'enum') return noDefault(col, ctx);
      return columnDefaultValue(col, ctx.now());
    });
  }

  private store(col: ColumnInfo, raw: Value, rowNumber: number, multi: boolean, ctx: ExecContext): Value {
    if (raw === null) {
      if (!col.notNull || col.autoIncrement) return null;
      return nullIntoNotNull(col, this.ignore || (multi && !ctx.strict), ctx);
    }
    return coerceToColumn(raw, col, rowNumber, ctx, this.table.name);
  }

  /** A row whose AUTO_INCREMENT column does not generate: NULL there is 1048 (or the implicit zero). */
  private checkNotNull(row: Value[], multi: boolean, ctx: ExecContext): void {
    if (this.autoInc < 0 || row[this.autoInc] !== null) return;
    const col = this.table.columns[this.autoInc] as ColumnInfo;
    row[this.autoInc] = nullIntoNotNull(col, this.ignore || multi, ctx);
  }
}

function defaultOf(col: ColumnInfo, _defaults: readonly Value[], ctx: ExecContext): Value {
  if (col.notNull && col.default.kind === 'none' && !col.autoIncrement) return noDefault(col, ctx);
  return columnDefaultValue(col, ctx.now());
}

function noDefault(col: ColumnInfo, ctx: ExecContext): Value {
  const err = SqlError.of('ER_NO_DEFAULT_FOR_FIELD', col.name);
  if (ctx.strict) throw err;
  ctx.warn(err.errno, err.message);
  return implicitZero(col.type);
}
