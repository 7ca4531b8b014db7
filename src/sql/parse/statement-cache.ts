/**
 * Text-query cache. The digest is the lexer's token stream with value-position literals
 * replaced by `?`; node-sql-parser runs once per digest. A hit returns the cached AST (its
 * lifted literals are `param` nodes) and this text's literal values as params. Large
 * literal-rows INSERTs skip the lexer's tokens and the cache (bulk-insert.ts).
 */
import type { Value } from '../../types/index.js';
import type { Statement } from './ast.js';
import { BULK_MIN_CHARS, parseBulkInsert } from './bulk-insert.js';
import { countParams, isDmlStart, parseTokens, statementTokens } from './parse-statement.js';
import { digestOf, planSlots } from './slots.js';

/** INSERTs with more tokens than this bypass the cache (the fast path is already fast). */
const BYPASS_TOKENS = 4096;

interface Entry {
  readonly stmt: Statement | null;
}

export interface CachedParse {
  readonly stmt: Statement;
  readonly params: Value[];
  /** null = not cacheable. */
  readonly digest: string | null;
}

export class StatementCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 1000) {}

  get size(): number {
    return this.entries.size;
  }

  parse(sql: string): CachedParse {
    if (sql.length >= BULK_MIN_CHARS) {
      const bulk = parseBulkInsert(sql);
      if (bulk !== undefined) return { stmt: bulk, params: [], digest: null };
    }
    const tokens = statementTokens(sql);
    if (!isDmlStart(tokens) || countParams(tokens) > 0 || tokens.length > BYPASS_TOKENS) {
      return { stmt: parseTokens(sql, tokens, false).stmt, params: [], digest: null };
    }
    const plan = planSlots(sql, tokens, true);
    const digest = digestOf(sql, tokens, plan);
    const hit = this.entries.get(digest);
    if (hit !== undefined) {
      this.entries.delete(digest);
      this.entries.set(digest, hit);
      if (hit.stmt !== null) return { stmt: hit.stmt, params: [...plan.lifted], digest };
      return { stmt: parseTokens(sql, tokens, false).stmt, params: [], digest: null };
    }
    const r = parseTokens(sql, tokens, true);
    this.store(digest, { stmt: r.cacheable ? r.stmt : null });
    if (r.cacheable) return { stmt: r.stmt, params: [...plan.lifted], digest };
    return { stmt: r.inlined(), params: [], digest: null };
  }

  private store(digest: string, entry: Entry): void {
    this.entries.set(digest, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
