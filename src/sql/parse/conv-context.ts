/** State shared by the node-sql-parser -> AST converters of one statement. */
import type { Expr } from './ast.js';
import type { ItemExtent } from './select-lists.js';
import type { SlotPlan } from './slots.js';
import { DEFAULT_PARAM } from './lib.js';
import { parseError } from './parse-error.js';
import type { SqlError } from '../../errors/index.js';

export class ConvCtx {
  /** >0 while converting a position where lifted literals must stay literals (labels, ORDER BY...). */
  restricted = 0;
  /** A lifted literal had to stay a literal: the digest cannot be reused with other values. */
  uncacheable = false;
  private nextList = 0;

  constructor(
    readonly sql: string,
    readonly plan: SlotPlan,
    /** Lifted literals become `param` nodes (statement-cache mode). */
    readonly asParams: boolean,
    private readonly lists: readonly ItemExtent[][],
  ) {}

  /** Converts node-sql-parser's named param `:pN` / `:shale_default`. */
  param(name: string): Expr {
    if (name === DEFAULT_PARAM) return { kind: 'default' };
    const slot = name.startsWith('p') ? this.plan.slots[Number(name.slice(1))] : undefined;
    if (slot === undefined) throw this.error();
    if (slot.kind === 'placeholder') return { kind: 'param', index: slot.index };
    if (this.asParams && this.restricted === 0) return { kind: 'param', index: slot.index };
    if (this.asParams) this.uncacheable = true;
    return { kind: 'literal', value: slot.value };
  }

  restrict<T>(fn: () => T): T {
    this.restricted++;
    try {
      return fn();
    } finally {
      this.restricted--;
    }
  }

  /** The item texts of the next SELECT in text order. */
  takeSelectList(): readonly ItemExtent[] | undefined {
    return this.lists[this.nextList++];
  }

  error(): SqlError {
    return parseError(this.sql, 0);
  }
}
