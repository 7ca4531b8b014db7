/**
 * The layout of a local cluster: which port and which file each process gets. Pure: computes
 * and validates, starts nothing.
 */
import { join, resolve } from 'node:path';
import type { LogLevel } from '../logger.js';

/** Everyone binds and connects here; the local cluster never listens on other interfaces. */
export const LOCAL_HOST = '127.0.0.1';

/** Client port of etcd member i is etcdBasePort + ETCD_PORT_STRIDE * i; its peer port is one above. */
export const ETCD_PORT_STRIDE = 100;

/** A SQL node's status HTTP server (/health for HAProxy, /metrics) listens on its port + this. */
export const NODE_STATUS_PORT_OFFSET = 1000;

export interface ClusterOptions {
  readonly dir: string;
  readonly etcdMembers: number;
  readonly nodes: number;
  /** HAProxy's port: the cluster's MySQL endpoint. */
  readonly port: number;
  readonly nodeBasePort: number;
  readonly etcdBasePort: number;
  /** KV store URL for the SQL nodes; default: the etcd URL of the members started. */
  readonly store?: string;
  readonly workers: number;
  readonly logLevel: LogLevel;
}

export interface EtcdMemberLayout {
  readonly index: number;
  readonly name: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly dataDir: string;
  readonly logFile: string;
}

export interface NodeLayout {
  readonly index: number;
  readonly name: string;
  readonly port: number;
  /** `--status-port`: port + NODE_STATUS_PORT_OFFSET. */
  readonly statusPort: number;
  readonly logFile: string;
}

export interface ClusterLayout {
  /** Absolute cluster directory. */
  readonly dir: string;
  readonly logsDir: string;
  readonly stateFile: string;
  readonly haproxyConfigFile: string;
  readonly haproxyLogFile: string;
  readonly haproxyPort: number;
  readonly etcd: readonly EtcdMemberLayout[];
  readonly nodes: readonly NodeLayout[];
  readonly storeUrl: string;
  readonly workers: number;
  readonly logLevel: LogLevel;
}

/** A port the cluster will listen on, with a human name for error messages. */
export interface PortClaim {
  readonly port: number;
  readonly owner: string;
}

/** `etcd://h:p,h:p,...` for the given client ports (the store URL `shale serve` understands). */
export function etcdStoreUrl(clientPorts: readonly number[], host = LOCAL_HOST): string {
  return `etcd://${clientPorts.map((p) => `${host}:${p}`).join(',')}`;
}

export const STATE_FILE_NAME = 'cluster.json';
export const HAPROXY_CONFIG_NAME = 'haproxy.cfg';

/** Computes ports and paths from the options; throws a user-facing Error when they do not fit. */
export function planCluster(opts: ClusterOptions): ClusterLayout {
  if (!Number.isInteger(opts.nodes) || opts.nodes < 1) throw new Error('--nodes must be at least 1');
  if (!Number.isInteger(opts.etcdMembers) || opts.etcdMembers < 0) throw new Error('--etcd-members must be 0 or more');
  if (opts.etcdMembers === 0 && opts.store === undefined) {
    throw new Error('--etcd-members 0 needs --store <url> (the SQL nodes need a store)');
  }
  const dir = resolve(opts.dir);
  const logsDir = join(dir, 'logs');
  const etcd: EtcdMemberLayout[] = [];
  for (let i = 0; i < opts.etcdMembers; i++) {
    const clientPort = opts.etcdBasePort + ETCD_PORT_STRIDE * i;
    etcd.push({
      index: i,
      name: `etcd-${i}`,
      clientPort,
      peerPort: clientPort + 1,
      dataDir: join(dir, `etcd-${i}`),
      logFile: join(logsDir, `etcd-${i}.log`),
    });
  }
  const nodes: NodeLayout[] = [];
  for (let j = 0; j < opts.nodes; j++) {
    const port = opts.nodeBasePort + j;
    nodes.push({ index: j, name: `node${j}`, port, statusPort: port + NODE_STATUS_PORT_OFFSET, logFile: join(logsDir, `node-${j}.log`) });
  }
  const layout: ClusterLayout = {
    dir,
    logsDir,
    stateFile: join(dir, STATE_FILE_NAME),
    haproxyConfigFile: join(dir, HAPROXY_CONFIG_NAME),
    haproxyLogFile: join(logsDir, 'haproxy.log'),
    haproxyPort: opts.port,
    etcd,
    nodes,
    storeUrl: opts.store ?? etcdStoreUrl(etcd.map((m) => m.clientPort)),
    workers: opts.workers,
    logLevel: opts.logLevel,
  };
  checkPorts(portClaims(layout));
  return layout;
}

/** Every port the cluster listens on, in start order. */
export function portClaims(layout: ClusterLayout): PortClaim[] {
  return [
    ...layout.etcd.flatMap((m) => [
      { port: m.clientPort, owner: `${m.name} client` },
      { port: m.peerPort, owner: `${m.name} peer` },
    ]),
    ...layout.nodes.flatMap((n) => [
      { port: n.port, owner: `SQL ${n.name}` },
      { port: n.statusPort, owner: `SQL ${n.name} status` },
    ]),
    { port: layout.haproxyPort, owner: 'HAProxy' },
  ];
}

function checkPorts(claims: readonly PortClaim[]): void {
  const seen = new Map<number, string>();
  for (const { port, owner } of claims) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`port ${port} for ${owner} is outside 1-65535; choose other base ports`);
    }
    const other = seen.get(port);
    if (other !== undefined) throw new Error(`port ${port} would be used by both ${other} and ${owner}; choose other base ports`);
    seen.set(port, owner);
  }
}
