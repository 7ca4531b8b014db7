/**
 * The operations flags of `shale serve`: --status-host/--status-port (the /health and /metrics
 * HTTP server), --slow-query-ms (default @@long_query_time) and --shutdown-timeout.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { ServeOptions } from './serve.js';

export interface OpsFlags {
  host: string;
  statusHost?: string;
  statusPort: number;
  slowQueryMs: number;
  shutdownTimeout: number;
}

export const STATUS_PORT_HELP =
  'port of the status HTTP server: GET /health (200; 503 when the store fails or stalls; 404 while shutting down) ' +
  'and GET /metrics (Prometheus); 0 picks a free one; with --workers it runs in the primary. ' +
  'If the default port is taken, the node runs without it';

/** A commander parser for a number >= 0 (fractions allowed). */
export function parseNonNegative(unit: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`must be a number of ${unit} >= 0`);
    return n;
  };
}

/** ServeOptions fields from the flags; `cmd` tells whether --status-port was given explicitly. */
export function opsServeOptions(flags: OpsFlags, cmd: Command): Pick<ServeOptions, 'status' | 'slowQueryMs' | 'shutdownTimeoutMs'> {
  return {
    status: {
      host: flags.statusHost ?? flags.host,
      port: flags.statusPort,
      required: cmd.getOptionValueSource('statusPort') !== 'default',
    },
    slowQueryMs: flags.slowQueryMs,
    shutdownTimeoutMs: Math.round(flags.shutdownTimeout * 1000),
  };
}
