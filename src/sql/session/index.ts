export * from './types.js';
export { createEngine, type EngineOptions, type ClosableEngine } from './engine.js';
export { hashPassword } from './users.js';
export { NO_OBSERVER, type EngineObserver, type StatementObservation, type TransactionOutcome } from './observer.js';
