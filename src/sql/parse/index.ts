export * from './ast.js';
export { parseStatement, type ParsedStatement } from './parse-statement.js';
export { parseExpression, exprColumns } from './parse-expr-text.js';
export { splitStatements, countPlaceholders } from './split.js';
export { StatementCache, type CachedParse } from './statement-cache.js';
export { normalizeStatement } from './normalize.js';
export { statementHints, type StatementHints } from './hints.js';
export { BULK_MIN_CHARS } from './bulk-insert.js';
export { parseBulkInsertBytes } from './bulk-insert-bytes.js';
