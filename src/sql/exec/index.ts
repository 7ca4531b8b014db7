/** Execution: compiled statements (SELECT / INSERT / REPLACE / UPDATE / DELETE / EXPLAIN) and their context. */
export type { ExecContext, CompiledStatement } from './context.js';
export { compileStatement } from './compile.js';
export { Cancellation, uncancellable, interruptError, type InterruptReason } from './cancellation.js';
