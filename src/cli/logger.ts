import { pino, type Logger } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The root logger: JSON lines on stderr, one line per event. Only the CLI creates it. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { app: 'shaledb' } }, pino.destination(2));
}
