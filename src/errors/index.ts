export { ERRORS, type ErrorName, type ErrorSpec } from './codes.js';
export { SqlError, formatTemplate, isSqlError } from './sql-error.js';
