/**
 * `shale cluster up|down|status`: a whole local cluster on 127.0.0.1 without containers: etcd
 * members, SQL nodes on the etcd store, and HAProxy in front (see launcher.ts, teardown.ts).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { LOG_LEVELS, type LogLevel } from '../logger.js';
import { clusterUp } from './launcher.js';
import { clusterStatus, upSummary } from './status.js';
import { clusterDown } from './teardown.js';

const DEFAULT_DIR = './shale-cluster';

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number 1-65535');
  return n;
}

function parseCount(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number ${min}-${max}`);
    return n;
  };
}

interface UpFlags {
  dir: string;
  etcdMembers: number;
  nodes: number;
  port: number;
  nodeBasePort: number;
  etcdBasePort: number;
  store?: string;
  workers: number;
  logLevel: LogLevel;
}

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const UP_HELP = `
Ports (all on 127.0.0.1): etcd member i listens for clients on <etcd-base-port> + 100*i and for
peers one above (2379/2380, 2479/2480, 2579/2580); SQL node j on <node-base-port> + j, with its
status HTTP server (/health, which HAProxy checks, and /metrics) 1000 above; HAProxy, the MySQL
endpoint, on --port. Every port must be free. Logs go to <dir>/logs/, etcd data to
<dir>/etcd-<i>/, and <dir>/cluster.json records the pids for \`down\` and \`status\`.

Needs etcd (Debian package etcd-server) and haproxy on PATH.

Example:
  shale cluster up --dir ./shale-cluster --nodes 3
  mysql -h127.0.0.1 -P4000 -uroot
  shale cluster status --dir ./shale-cluster
  shale cluster down --dir ./shale-cluster`;

/** Adds `shale cluster up|down|status` (the local etcd + SQL nodes + HAProxy topology). */
export function registerClusterCommands(program: Command): void {
  const cluster = program
    .command('cluster')
    .description('run a local cluster: etcd members, SQL nodes, HAProxy (all on 127.0.0.1)')
    .addHelpText('after', '\nExample:\n  shale cluster up && mysql -h127.0.0.1 -P4000 -uroot\n  shale cluster down');

  cluster
    .command('up')
    .description('start etcd members, SQL nodes on the etcd store, and HAProxy in front of the nodes')
    .option('--dir <dir>', 'directory for data, logs and cluster.json', DEFAULT_DIR)
    .option('--etcd-members <n>', 'etcd members to start (0 only with --store)', parseCount(0, 9), 3)
    .option('--nodes <n>', 'SQL nodes to start', parseCount(1, 64), 2)
    .option('--port <port>', 'HAProxy port: the MySQL endpoint of the cluster', parsePort, 4000)
    .option('--node-base-port <port>', 'port of SQL node 0 (node j gets base + j)', parsePort, 4001)
    .option('--etcd-base-port <port>', 'client port of etcd member 0 (member i gets base + 100*i, peers +1)', parsePort, 2379)
    .option('--store <url>', 'KV store URL for the SQL nodes (default: etcd://<the members started>)')
    .option('--workers <n>', 'SQL processes per node (as shale serve --workers)', parseCount(1, 64), 1)
    .addOption(new Option('--log-level <level>', 'log level of the SQL nodes').choices(LOG_LEVELS).default('info'))
    .addHelpText('after', UP_HELP)
    .action(async (flags: UpFlags) => {
      const { state, layout } = await clusterUp(flags, say);
      for (const line of upSummary(state, layout.dir)) say(line);
    });

  cluster
    .command('down')
    .description('stop the processes recorded in <dir>/cluster.json and remove <dir>')
    .option('--dir <dir>', 'directory given to `cluster up`', DEFAULT_DIR)
    .option('--keep-data', 'keep etcd data and logs (a later `up` with the same --dir resumes the data)', false)
    .addHelpText('after', '\nExample:\n  shale cluster down --dir ./shale-cluster')
    .action(async (flags: { dir: string; keepData: boolean }) => {
      await clusterDown(flags.dir, { keepData: flags.keepData }, say);
    });

  cluster
    .command('status')
    .description('show whether each process of the cluster runs and answers (exit 1 if any is down)')
    .option('--dir <dir>', 'directory given to `cluster up`', DEFAULT_DIR)
    .action(async (flags: { dir: string }) => {
      if (!(await clusterStatus(flags.dir, say))) process.exitCode = 1;
    });
}
