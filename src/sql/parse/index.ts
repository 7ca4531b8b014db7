export * from './ast.js';
export { parseStatement, type ParsedStatement } from './parse-statement.js';
export { splitStatements, countPlaceholders } from './split.js';
export { StatementCache, type CachedParse } from './statement-cache.js';
