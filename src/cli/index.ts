export { buildProgram, packageVersion } from './program.js';
export { startNode, serveUntilSignal, type ServeOptions, type RunningNode } from './serve.js';
export { createLogger, type LogLevel } from './logger.js';
