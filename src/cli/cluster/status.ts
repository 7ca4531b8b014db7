/**
 * `shale cluster status` and the summary `up` prints: one line per recorded process saying
 * whether it runs and answers on its port.
 */
import { resolve } from 'node:path';
import { clusterProcesses, stillOurs, type ClusterProcess } from './ownership.js';
import { readClusterState, type ClusterState } from './state-file.js';
import { LOCAL_HOST } from './topology.js';
import { etcdHealthy, portAccepts } from './wait.js';

export interface ProcessStatus {
  readonly process: ClusterProcess;
  readonly running: boolean;
  readonly answering: boolean;
}

/** Probes every recorded process: running (and still ours) and answering on its port. */
export async function probeCluster(state: ClusterState, dir: string): Promise<ProcessStatus[]> {
  return Promise.all(
    clusterProcesses(state, dir).map(async (p) => {
      const running = stillOurs(p);
      const answering = p.kind === 'etcd' ? await etcdHealthy(p.port) : await portAccepts(p.port);
      return { process: p, running, answering };
    }),
  );
}

function statusWord(s: ProcessStatus): string {
  const probe = s.process.kind === 'etcd' ? 'healthy' : 'port open';
  if (s.running && s.answering) return `up (${probe})`;
  if (s.running) return `DOWN: running but not ${probe}`;
  return s.answering ? 'DOWN: not running (another process has the port)' : 'DOWN: not running';
}

/** Prints the status of the cluster in `dirArg`; returns whether every process is up. */
export async function clusterStatus(dirArg: string, say: (line: string) => void): Promise<boolean> {
  const dir = resolve(dirArg);
  const state = readClusterState(dir);
  const statuses = await probeCluster(state, dir);
  say(`cluster in ${dir} (store ${state.storeUrl})`);
  for (const s of statuses) {
    const p = s.process;
    say(`  ${p.name.padEnd(8)} pid ${String(p.pid).padEnd(8)} ${LOCAL_HOST}:${String(p.port).padEnd(6)} ${statusWord(s)}`);
  }
  const up = statuses.every((s) => s.running && s.answering);
  say(up ? 'all processes are up' : 'some processes are down');
  return up;
}

/** The human summary `up` prints once everything answers. */
export function upSummary(state: ClusterState, dir: string): string[] {
  return [
    `ShaleDB cluster is up (${dir})`,
    `  MySQL endpoint: mysql -h${LOCAL_HOST} -P${state.haproxy.port} -uroot   (HAProxy, pid ${state.haproxy.pid})`,
    `  SQL nodes:      ${state.nodes.map((n) => `${LOCAL_HOST}:${n.port} (pid ${n.pid})`).join(', ')}`,
    ...(state.etcd.length > 0
      ? [`  etcd endpoints: ${state.etcd.map((m) => `${LOCAL_HOST}:${m.clientPort}`).join(',')}`]
      : []),
    `  store:          ${state.storeUrl}`,
    `  logs:           ${dir}/logs/`,
    `  stop with:      shale cluster down --dir ${dir}`,
  ];
}
