/**
 * Per-connection registry of server-side prepared statements: ids from 1, sticky parameter
 * types and long-data buffers per statement. Like MySQL's max_prepared_stmt_count (default
 * 16382), the number of statements open in the whole process is capped, so a client that
 * prepares in a loop and never closes cannot grow memory without bound.
 * Spec: mysql-protocol.md §2.1–2.2.
 */
import { SqlError } from '../errors/index.js';
import type { PreparedStatement } from '../sql/session/types.js';
import type { ParamState } from './packets/stmt-execute.js';

export interface StatementEntry extends ParamState {
  readonly id: number;
  readonly stmt: PreparedStatement;
}

/** MySQL's default max_prepared_stmt_count. */
export const MAX_PREPARED_STMT_COUNT = 16382;

/** Statements open across every registry of this process. */
let openInProcess = 0;

export class PreparedRegistry {
  private nextId = 1;
  private readonly entries = new Map<number, StatementEntry>();

  /** `limit`: statements allowed open in the process (tests use small values). */
  constructor(private readonly limit = MAX_PREPARED_STMT_COUNT) {}

  /** Throws 1461 when no further statement may be prepared (checked before preparing). */
  checkCapacity(): void {
    if (openInProcess >= this.limit) throw SqlError.of('ER_MAX_PREPARED_STMT_COUNT_REACHED', this.limit);
  }

  add(stmt: PreparedStatement): StatementEntry {
    const entry: StatementEntry = { id: this.nextId++, stmt, types: null, longData: new Map() };
    this.entries.set(entry.id, entry);
    openInProcess++;
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
    openInProcess--;
    entry.stmt.close();
  }

  /** Closes every statement (RESET_CONNECTION, CHANGE_USER, disconnect). Ids keep increasing. */
  closeAll(): void {
    const all = [...this.entries.values()];
    this.entries.clear();
    openInProcess -= all.length;
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

  /** Statements open in this process (all connections). */
  static get openInProcess(): number {
    return openInProcess;
  }
}
