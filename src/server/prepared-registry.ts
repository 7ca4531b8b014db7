/**
 * Per-connection registry of server-side prepared statements: ids from 1, sticky parameter
 * types and long-data buffers per statement. Spec: mysql-protocol.md §2.1–2.2.
 */
import type { PreparedStatement } from '../sql/session/types.js';
import type { ParamState } from './packets/stmt-execute.js';

export interface StatementEntry extends ParamState {
  readonly id: number;
  readonly stmt: PreparedStatement;
}

export class PreparedRegistry {
  private nextId = 1;
  private readonly entries = new Map<number, StatementEntry>();

  add(stmt: PreparedStatement): StatementEntry {
    const entry: StatementEntry = { id: this.nextId++, stmt, types: null, longData: new Map() };
    this.entries.set(entry.id, entry);
    return entry;
  }

  get(id: number): StatementEntry | undefined {
    return this.entries.get(id);
  }

  /** Closes and forgets one statement; unknown ids are ignored (COM_STMT_CLOSE has no reply). */
  close(id: number): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    entry.stmt.close();
  }

  /** Closes every statement (RESET_CONNECTION, CHANGE_USER, disconnect). Ids keep increasing. */
  closeAll(): void {
    const all = [...this.entries.values()];
    this.entries.clear();
    let failure: unknown = null;
    for (const e of all) {
      try {
        e.stmt.close();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== null) throw failure;
  }

  get size(): number {
    return this.entries.size;
  }
}
