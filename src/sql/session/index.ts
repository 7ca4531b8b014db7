export * from './types.js';
export { createEngine, type EngineOptions, type ClosableEngine } from './engine.js';
export type { ProcessPeers } from './peers.js';
export type { KillTarget } from './kill.js';
export type { ProcessInfo } from './show-server.js';
export { hashPassword } from './users.js';
export { NO_OBSERVER, type EngineObserver, type StatementObservation, type TransactionOutcome } from './observer.js';
