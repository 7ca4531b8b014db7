/**
 * Per-session cache of planned statements, keyed by the statement cache's digest and the
 * current database (plans resolve unqualified table names). An entry planned against an older
 * schema version is re-planned on use.
 */
import type { Schema } from '../../catalog/index.js';
import { compileStatement, type CompiledStatement } from '../exec/index.js';
import type { Statement } from '../parse/index.js';

const MAX_ENTRIES = 512;

export class CompiledCache {
  private readonly entries = new Map<string, CompiledStatement>();

  get(digest: string | null, stmt: Statement, schema: Schema, db: string | null): CompiledStatement {
    if (digest === null) return compileStatement(stmt, schema, db);
    const key = db === null ? digest : `${db}\u0000${digest}`;
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.schemaVersion === schema.version) return hit;
    const compiled = compileStatement(stmt, schema, db);
    if (hit === undefined && this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, compiled);
    return compiled;
  }

  clear(): void {
    this.entries.clear();
  }
}
