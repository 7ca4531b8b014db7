import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger, LOG_LEVELS, type LogLevel } from './logger.js';
import { registerCheckCommands } from './check/index.js';
import { registerClusterCommands } from './cluster/index.js';
import { serveUntilSignal } from './serve.js';
import { serveWorkers } from './workers.js';

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

interface ServeFlags {
  host: string;
  port: number;
  dataDir: string;
  store?: string;
  logLevel: LogLevel;
  workers: number;
}

/** Builds the `shale` command line. */
export function buildProgram(): Command {
  const program = new Command('shale')
    .description('ShaleDB: a MySQL-compatible SQL database on a transactional KV store')
    .version(packageVersion(), '-V, --version');

  program
    .command('serve')
    .description('start a SQL node speaking the MySQL protocol (user root, empty password by default)')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'TCP port to listen on (0 picks a free one)', parsePort, 4000)
    .option('--data-dir <dir>', 'data directory of the embedded LMDB store', './shale-data')
    .option(
      '--store <url>',
      'KV store URL (overrides --data-dir): lmdb://<dir> for the embedded store, or etcd://host:port[,host:port...][/prefix] for an etcd v3 cluster shared by many SQL nodes',
    )
    .option('--workers <n>', 'SQL processes sharing the port and the store (use the CPU cores)', parseWorkers, 1)
    .addOption(new Option('--log-level <level>', 'log level').choices(LOG_LEVELS).default('info'))
    .addHelpText(
      'after',
      '\nEnvironment:\n  SHALE_ROOT_PASSWORD  password of the root account (default: empty)\n\n' +
        'Examples:\n  shale serve --port 4000 --data-dir ./shale-data\n' +
        '  shale serve --port 4001 --store etcd://127.0.0.1:2379,127.0.0.1:2479,127.0.0.1:2579\n' +
        '  mysql -h127.0.0.1 -P4000 -uroot',
    )
    .action(async (flags: ServeFlags) => {
      const logger = createLogger(flags.logLevel);
      const rootPassword = process.env['SHALE_ROOT_PASSWORD'];
      const opts = {
        host: flags.host,
        port: flags.port,
        store: flags.store ?? `lmdb://${flags.dataDir}`,
        logger,
        ...(rootPassword !== undefined ? { rootPassword } : {}),
      };
      if (flags.workers > 1) await serveWorkers(opts, flags.workers);
      else await serveUntilSignal(opts);
    });
  registerClusterCommands(program);
  registerCheckCommands(program);
  return program;
}
