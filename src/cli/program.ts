import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger, LOG_LEVELS, type LogLevel } from './logger.js';
import { registerCheckCommands } from './check/index.js';
import { applyConfigHook, CONFIG_HELP, configOption, logConfigReport } from './config-cli.js';
import { registerClusterCommands } from './cluster/index.js';
import { registerImportCommand } from './import/index.js';
import { loadServeTls, serveUntilSignal } from './serve.js';
import { serveWorkers } from './workers.js';
import { opsServeOptions, parseNonNegative, STATUS_PORT_HELP, type OpsFlags } from './ops-flags.js';
import { DEFAULT_STATUS_PORT } from './node-ops.js';

/** The package version, read once from package.json next to dist/ or src/. */
export function packageVersion(): string {
  const url = new URL('../../package.json', import.meta.url);
  const parsed: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (typeof parsed === 'object' && parsed !== null && 'version' in parsed && typeof parsed.version === 'string') {
    return parsed.version;
  }
  return '0.0.0';
}

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('must be a whole number 1-64');
  return n;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}

interface ServeFlags extends OpsFlags {
  host: string;
  port: number;
  dataDir: string;
  store?: string;
  logLevel: LogLevel;
  workers: number;
  pinWorkers: boolean;
  tlsCert?: string;
  tlsKey?: string;
  requireSecureTransport?: boolean;
  initialPassword?: string;
}

/** Builds the `shale` command line. */
export function buildProgram(): Command {
  const program = new Command('shale')
    .description('ShaleDB: a MySQL-compatible SQL database on a transactional KV store')
    .version(packageVersion(), '-V, --version');

  program
    .command('serve')
    .description('start a SQL node speaking the MySQL protocol (user root, empty password by default)')
    .addOption(configOption())
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'TCP port to listen on (0 picks a free one)', parsePort, 4000)
    .option('--data-dir <dir>', 'data directory of the embedded LMDB store', './shale-data')
    .option(
      '--store <url>',
      'KV store URL (overrides --data-dir): lmdb://<dir> for the embedded store, or etcd://host:port[,host:port...][/prefix] for an etcd v3 cluster shared by many SQL nodes',
    )
    .option('--workers <n>', 'SQL processes sharing the port and the store (use the CPU cores)', parseWorkers, 1)
    .option('--no-pin-workers', 'with --workers N on N CPUs, do not pin worker i to CPU i (pinned: faster commits)')
    .option('--initial-password <pw>', "password of 'root'@'%' set on the first start only (while the store has no accounts); later starts keep the stored one. Never logged (default: empty)")
    .option('--status-host <addr>', 'address of the status HTTP server (default: --host)')
    .option('--status-port <n>', STATUS_PORT_HELP, parsePort, DEFAULT_STATUS_PORT)
    .option('--slow-query-ms <n>', 'log statements running at least this long (sets @@global.long_query_time; 0 logs all)', parseNonNegative('milliseconds'), 1000)
    .option('--shutdown-timeout <s>', 'on SIGTERM/SIGINT, how long running statements may finish before connections are cut', parseNonNegative('seconds'), 10)
    .addOption(new Option('--log-level <level>', 'log level').choices(LOG_LEVELS).default('info'))
    .option('--tls-cert <file>', 'PEM certificate (chain) for TLS client connections; needs --tls-key')
    .option('--tls-key <file>', 'PEM private key (unencrypted) of --tls-cert')
    .option('--require-secure-transport', 'refuse connections not using TLS (error 3159); needs --tls-cert/--tls-key')
    .addHelpText(
      'after',
      '\nEnvironment:\n  SHALE_ROOT_PASSWORD  same as --initial-password (the flag wins): root\'s password on the first start only\n\n' +
        'Examples:\n  shale serve --port 4000 --data-dir ./shale-data\n' +
        '  shale serve --port 4001 --store etcd://127.0.0.1:2379,127.0.0.1:2479,127.0.0.1:2579\n' +
        '  mysql -h127.0.0.1 -P4000 -uroot',
    )
    .addHelpText('after', CONFIG_HELP)
    .hook('preAction', applyConfigHook)
    .action(async (flags: ServeFlags, cmd: Command) => {
      const logger = createLogger(flags.logLevel);
      logConfigReport(cmd, logger);
      const rootPassword = flags.initialPassword ?? process.env['SHALE_ROOT_PASSWORD'];
      const opts = {
        host: flags.host,
        port: flags.port,
        store: flags.store ?? `lmdb://${flags.dataDir}`,
        logger,
        ...(rootPassword !== undefined ? { rootPassword } : {}),
        tlsCert: flags.tlsCert,
        tlsKey: flags.tlsKey,
        requireSecureTransport: flags.requireSecureTransport === true,
        ...opsServeOptions(flags, cmd),
      };
      loadServeTls(opts);
      if (flags.workers > 1) await serveWorkers(opts, flags.workers, { pin: flags.pinWorkers });
      else await serveUntilSignal(opts);
    });
  registerClusterCommands(program);
  registerCheckCommands(program);
  registerImportCommand(program);
  return program;
}
