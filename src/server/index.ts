/** Public API of the MySQL wire-protocol server. */
export { startServer, type ServerOptions, type RunningServer } from './server.js';
