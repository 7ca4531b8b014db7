/** Public API of the MySQL wire-protocol server. */
export { startServer, type ServerOptions, type RunningServer, type CloseReport } from './server.js';
export { loadTlsContext, TlsConfigError } from './tls.js';
