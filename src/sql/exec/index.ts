/** Execution: compiled statements (SELECT / INSERT / REPLACE / UPDATE / DELETE / EXPLAIN) and their context. */
export type { ExecContext, CompiledStatement } from './context.js';
export { compileStatement } from './compile.js';
export { Cancellation, uncancellable, interruptError, type InterruptReason } from './cancellation.js';
export { estimateTable, type TableEstimate } from './table-stats.js';
export { compileChecks } from './check-constraint.js';
export { foreignKeyRowValidator } from './foreign-key.js';
export { overrideContext } from './foreign-key-lookup.js';
export { implicitZero } from './column-values.js';
export { prefetchKeys } from './prefetch-keys.js';
export { isGeneratedIdCollision } from './table-writer.js';
