/**
 * The values a session's statements leave for the next ones: LAST_INSERT_ID(), ROW_COUNT() and
 * FOUND_ROWS(). SessionImpl extends it (ContextHost's accessors live here).
 */
export class SessionCounters {
  protected lastInsert = 0n;
  /** -1 after a statement without an affected-row count (a SELECT), as MySQL's ROW_COUNT(). */
  protected lastRowCount = -1n;
  protected lastFoundRows = 0n;

  lastInsertId(): bigint {
    return this.lastInsert;
  }

  setLastInsertId(id: bigint): void {
    this.lastInsert = id;
  }

  rowCount(): bigint {
    return this.lastRowCount;
  }

  foundRows(): bigint {
    return this.lastFoundRows;
  }

  setFoundRows(n: bigint): void {
    this.lastFoundRows = n;
  }

  /** COM_RESET_CONNECTION: back to a new session's values. */
  protected resetCounters(): void {
    this.lastInsert = 0n;
    this.lastRowCount = -1n;
    this.lastFoundRows = 0n;
  }
}
