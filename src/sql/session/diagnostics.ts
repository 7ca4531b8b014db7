/**
 * The diagnostics area: warnings and errors of the last statement, for SHOW WARNINGS /
 * SHOW ERRORS and @@warning_count / @@error_count. Statements that read no table (SELECT
 * without FROM, SHOW WARNINGS itself) keep the previous statement's list, as in MySQL.
 */
export type DiagnosticLevel = 'Note' | 'Warning' | 'Error';

export interface Diagnostic {
  readonly level: DiagnosticLevel;
  readonly code: number;
  readonly message: string;
}

/** Conditions MySQL always reports as notes (IF [NOT] EXISTS on existing/missing objects), whoever adds them. */
const NOTE_CODES: ReadonlySet<number> = new Set([1007, 1008, 1050, 1051]);

export class Diagnostics {
  private items: Diagnostic[] = [];
  private total = 0;

  constructor(private readonly limit: () => number) {}

  clear(): void {
    if (this.total !== 0) {
      this.items = [];
      this.total = 0;
    }
  }

  add(level: DiagnosticLevel, code: number, message: string): void {
    this.total++;
    const lvl = level === 'Warning' && NOTE_CODES.has(code) ? 'Note' : level;
    if (this.items.length < this.limit()) this.items.push({ level: lvl, code, message });
  }

  /** Position to return to when a statement is re-run from scratch. */
  mark(): number {
    return this.total;
  }

  restore(mark: number): void {
    if (this.total === mark) return;
    this.total = mark;
    if (this.items.length > mark) this.items.length = mark;
  }

  /** All recorded conditions (capped at max_error_count). */
  list(): readonly Diagnostic[] {
    return this.items;
  }

  errors(): readonly Diagnostic[] {
    return this.items.filter((d) => d.level === 'Error');
  }

  /** @@warning_count: every condition counted, even those past the cap. */
  warningCount(): number {
    return this.total;
  }

  errorCount(): number {
    return this.items.filter((d) => d.level === 'Error').length;
  }
}
