/**
 * What a DML statement checks per written row beyond types and keys: CHECK constraints
 * (check-constraint.ts) and FOREIGN KEYs (foreign-key.ts). `RowRules.of` is null for the
 * common table with neither, so the write paths pay nothing for them.
 */
import type { Schema, TableInfo } from '../../catalog/index.js';
import { isSqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { compileChecks, type RowCheck } from './check-constraint.js';
import type { ExecContext } from './context.js';
import { ForeignKeyGuard } from './foreign-key.js';

/** Errors INSERT IGNORE / UPDATE IGNORE turn into warnings (the row is skipped). */
const IGNORABLE = new Set([1452, 1451, 3819]);

export class RowRules {
  private constructor(
    private readonly check: RowCheck | null,
    private readonly fks: ForeignKeyGuard | null,
  ) {}

  static of(table: TableInfo, schema: Schema): RowRules | null {
    const check = compileChecks(table);
    const fks = ForeignKeyGuard.of(table, schema);
    return check === null && fks === null ? null : new RowRules(check, fks);
  }

  async insert(ctx: ExecContext, row: readonly Value[]): Promise<void> {
    this.check?.(row, ctx);
    await this.fks?.checkInsert(ctx, row);
  }

  async update(ctx: ExecContext, old: readonly Value[], row: readonly Value[]): Promise<void> {
    this.check?.(row, ctx);
    await this.fks?.checkInsert(ctx, row, old);
    await this.fks?.beforeUpdate(ctx, old, row);
  }

  async delete(ctx: ExecContext, row: readonly Value[]): Promise<void> {
    await this.fks?.beforeDelete(ctx, row);
  }
}

/** Runs `step`; with `ignore`, a constraint error becomes a warning and the result is false. */
export async function passesRules(ctx: ExecContext, ignore: boolean, step: () => Promise<void>): Promise<boolean> {
  if (!ignore) {
    await step();
    return true;
  }
  try {
    await step();
    return true;
  } catch (e) {
    if (!isSqlError(e) || !IGNORABLE.has(e.errno)) throw e;
    ctx.warn(e.errno, e.message);
    return false;
  }
}
