/**
 * How `down` and `status` recognise the processes `up` started once only a pid is left: the pid
 * must still run the same program with the same distinguishing argument (a data directory, a
 * config file or a port), otherwise it was reused and is left alone.
 */
import { basename, join } from 'node:path';
import { isRunning, readArgv, type Ownership } from './processes.js';
import type { ClusterState } from './state-file.js';
import { HAPROXY_CONFIG_NAME } from './topology.js';

function runs(argv: readonly string[], program: string): boolean {
  return argv.slice(0, 2).some((a) => basename(a) === program);
}

/** An etcd member started with this data directory. */
export function etcdOwnership(dataDir: string): Ownership {
  return (argv) => runs(argv, 'etcd') && argv.includes(`--data-dir=${dataDir}`);
}

/** A `shale.js serve` process listening on this port. */
export function nodeOwnership(port: number): Ownership {
  return (argv) => {
    if (!argv.some((a) => basename(a) === 'shale.js') || !argv.includes('serve')) return false;
    const i = argv.indexOf('--port');
    return i >= 0 && argv[i + 1] === String(port);
  };
}

/** HAProxy run with this config file. */
export function haproxyOwnership(configFile: string): Ownership {
  return (argv) => runs(argv, 'haproxy') && argv.includes(configFile);
}

/** A process of the cluster, with what identifies it. */
export interface OwnedProcess {
  readonly name: string;
  readonly kind: 'haproxy' | 'node' | 'etcd';
  readonly pid: number;
  readonly ours: Ownership;
}

/** One process recorded in cluster.json. */
export interface ClusterProcess extends OwnedProcess {
  /** The port it listens on (an etcd member's client port). */
  readonly port: number;
}

/** The recorded processes in stopping order: HAProxy, SQL nodes, etcd members. */
export function clusterProcesses(state: ClusterState, dir: string): ClusterProcess[] {
  const { haproxy } = state;
  return [
    { name: 'HAProxy', kind: 'haproxy', ...haproxy, ours: haproxyOwnership(join(dir, HAPROXY_CONFIG_NAME)) },
    ...state.nodes.map((n, j): ClusterProcess => ({ name: `node${j}`, kind: 'node', ...n, ours: nodeOwnership(n.port) })),
    ...state.etcd.map(
      (m): ClusterProcess => ({ name: m.name, kind: 'etcd', pid: m.pid, port: m.clientPort, ours: etcdOwnership(m.dataDir) }),
    ),
  ];
}

/** Whether the recorded pid still runs the process we started. */
export function stillOurs(p: ClusterProcess): boolean {
  if (!isRunning(p.pid)) return false;
  const argv = readArgv(p.pid);
  return argv !== undefined && p.ours(argv);
}
