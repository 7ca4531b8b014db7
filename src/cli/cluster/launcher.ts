/**
 * `shale cluster up`: starts the etcd members, then the SQL nodes, then HAProxy, each detached
 * with its own log, waits until each answers, and records the pids in cluster.json. If any step
 * fails (or Ctrl-C arrives) everything already started is stopped again before the error is
 * reported, so a failed `up` leaves no processes behind.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { etcdArgs, type EtcdClusterSpec } from './etcd-args.js';
import { haproxyConfig } from './haproxy-config.js';
import { clusterProcesses, etcdOwnership, haproxyOwnership, nodeOwnership, stillOurs, type OwnedProcess } from './ownership.js';
import { findExecutable, spawnDetached, tailFile, type Ownership, type Started } from './processes.js';
import { readClusterState, stateFilePath, writeClusterState, type ClusterState } from './state-file.js';
import { stopInOrder } from './teardown.js';
import { LOCAL_HOST, planCluster, portClaims, type ClusterLayout, type ClusterOptions, type NodeLayout } from './topology.js';
import { etcdHealthy, nodeHealthy, portAccepts, portIsFree, waitUntil } from './wait.js';
import { SQL_NODE_V8_FLAGS } from '../v8-flags.js';

/** How long each kind of process may take to become ready. */
const ETCD_READY_MS = 30_000;
const NODE_READY_MS = 30_000;
const HAPROXY_READY_MS = 10_000;

/** `bin/shale.js` of this installation (the same relative path from dist/ and from src/). */
export const SHALE_BIN = fileURLToPath(new URL('../../../bin/shale.js', import.meta.url));

interface Tracked extends OwnedProcess {
  readonly proc: Started;
}

interface StartSpec {
  readonly kind: OwnedProcess['kind'];
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly logFile: string;
  readonly ours: Ownership;
}

/** Starts the cluster described by `opts`; `say` receives progress lines. */
export async function clusterUp(
  opts: ClusterOptions,
  say: (line: string) => void,
): Promise<{ state: ClusterState; layout: ClusterLayout }> {
  const layout = planCluster(opts);
  refuseIfRunning(layout.dir);
  const etcdBin = layout.etcd.length > 0 ? requireExecutable('etcd', 'etcd-server') : '';
  const haproxyBin = requireExecutable('haproxy', 'haproxy');
  for (const claim of portClaims(layout)) {
    if (!(await portIsFree(claim.port))) {
      throw new Error(
        `port ${claim.port} (${claim.owner}) is already in use on ${LOCAL_HOST}; ` +
          'stop what uses it or choose other ports (see shale cluster up --help)',
      );
    }
  }
  mkdirSync(layout.logsDir, { recursive: true });
  // etcd data this run creates is removed again if it fails: a retry must bootstrap afresh.
  const newDataDirs = layout.etcd.map((m) => m.dataDir).filter((d) => !existsSync(d));
  const launch = new Launch();
  try {
    const etcd = await launch.etcd(layout, etcdBin, say);
    const nodes = await launch.nodes(layout, say);
    const haproxy = await launch.haproxy(layout, haproxyBin, say);
    const state: ClusterState = {
      version: 1,
      storeUrl: layout.storeUrl,
      haproxy: { port: layout.haproxyPort, pid: haproxy.pid },
      nodes: layout.nodes.map((n, j) => ({ port: n.port, pid: nodes[j]!.pid })),
      etcd: layout.etcd.map((m, i) => ({
        name: m.name,
        clientPort: m.clientPort,
        peerPort: m.peerPort,
        pid: etcd[i]!.pid,
        dataDir: m.dataDir,
      })),
    };
    writeClusterState(layout.dir, state);
    return { state, layout };
  } catch (err) {
    say(`start-up failed; stopping what was started (logs stay in ${layout.logsDir})`);
    await launch.stopAll();
    for (const d of newDataDirs) rmSync(d, { recursive: true, force: true });
    throw err;
  } finally {
    launch.close();
  }
}

/** The processes one `up` has started so far, and how to start and await the next. */
class Launch {
  private readonly tracked: Tracked[] = [];
  private interrupted: string | undefined;
  private readonly onSignal = (sig: NodeJS.Signals): void => {
    this.interrupted = `interrupted by ${sig}`;
  };

  constructor() {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  close(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }

  stopAll(): Promise<void> {
    return stopInOrder(this.tracked, 5_000);
  }

  /** All members at once (a new etcd cluster needs a quorum to elect a leader), then health. */
  async etcd(layout: ClusterLayout, etcdBin: string, say: (line: string) => void): Promise<Tracked[]> {
    if (layout.etcd.length === 0) return [];
    say(`starting ${layout.etcd.length} etcd members (client ports ${layout.etcd.map((m) => m.clientPort).join(', ')})`);
    const spec = etcdClusterSpec(layout);
    const members = await Promise.all(
      layout.etcd.map((m, i) =>
        this.start({
          kind: 'etcd',
          name: m.name,
          command: etcdBin,
          args: etcdArgs(spec.members[i]!, spec),
          logFile: m.logFile,
          ours: etcdOwnership(m.dataDir),
        }),
      ),
    );
    await Promise.all(
      members.map((t, i) => this.ready(t, () => etcdHealthy(layout.etcd[i]!.clientPort), 'to report healthy', ETCD_READY_MS)),
    );
    return members;
  }

  /** The first node alone (it bootstraps a fresh store), then the others side by side. */
  async nodes(layout: ClusterLayout, say: (line: string) => void): Promise<Tracked[]> {
    say(`starting ${layout.nodes.length} SQL nodes on ${layout.storeUrl}`);
    const startNode = async (n: NodeLayout): Promise<Tracked> => {
      const t = await this.start({
        kind: 'node',
        name: n.name,
        command: process.execPath,
        args: nodeArgs(layout, n),
        logFile: n.logFile,
        ours: nodeOwnership(n.port),
      });
      // Healthy, not only accepting: HAProxy's first check of a node whose workers still start
      // fails, and a failed check cuts the sessions already sent to it.
      const serving = async (): Promise<boolean> => (await portAccepts(n.port)) && (await nodeHealthy(n.statusPort));
      await this.ready(t, serving, `to accept connections on port ${n.port} and report healthy on ${n.statusPort}`, NODE_READY_MS);
      return t;
    };
    const [first, ...rest] = layout.nodes;
    return [await startNode(first!), ...(await Promise.all(rest.map(startNode)))];
  }

  async haproxy(layout: ClusterLayout, haproxyBin: string, say: (line: string) => void): Promise<Tracked> {
    writeFileSync(
      layout.haproxyConfigFile,
      haproxyConfig({
        bind: `${LOCAL_HOST}:${layout.haproxyPort}`,
        servers: layout.nodes.map((n) => ({ name: n.name, host: LOCAL_HOST, port: n.port, statusPort: n.statusPort })),
      }),
    );
    say(`starting HAProxy on port ${layout.haproxyPort}`);
    const t = await this.start({
      kind: 'haproxy',
      name: 'HAProxy',
      command: haproxyBin,
      args: ['-f', layout.haproxyConfigFile],
      logFile: layout.haproxyLogFile,
      ours: haproxyOwnership(layout.haproxyConfigFile),
    });
    const what = `to accept connections on port ${layout.haproxyPort}`;
    await this.ready(t, () => portAccepts(layout.haproxyPort), what, HAPROXY_READY_MS);
    return t;
  }

  private async start(spec: StartSpec): Promise<Tracked> {
    const proc = await spawnDetached(spec.command, spec.args, spec.logFile);
    const t: Tracked = { kind: spec.kind, name: spec.name, pid: proc.pid, proc, ours: spec.ours };
    this.tracked.push(t);
    return t;
  }

  /** Waits for `probe`; gives up early when the process exits or a signal arrives. */
  private async ready(t: Tracked, probe: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
    const abort = (): string | undefined => {
      const exit = t.proc.exited();
      return this.interrupted ?? (exit === undefined ? undefined : `${t.name} ${exit}`);
    };
    try {
      await waitUntil(probe, { what: `${t.name} ${what}`, timeoutMs, abort });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (this.interrupted !== undefined) throw new Error(msg);
      throw new Error(`${msg}\n--- last lines of ${t.proc.logFile} ---\n${tailFile(t.proc.logFile)}`);
    }
  }
}

function etcdClusterSpec(layout: ClusterLayout): EtcdClusterSpec {
  return {
    token: `shale-${randomUUID()}`,
    members: layout.etcd.map((m) => ({
      name: m.name,
      dataDir: m.dataDir,
      listenHost: LOCAL_HOST,
      advertiseHost: LOCAL_HOST,
      clientPort: m.clientPort,
      peerPort: m.peerPort,
    })),
  };
}

/** `node <SQL_NODE_V8_FLAGS> bin/shale.js serve ...` arguments (after the node binary) for SQL node `n`. */
export function nodeArgs(layout: ClusterLayout, n: NodeLayout): string[] {
  return [
    ...SQL_NODE_V8_FLAGS,
    SHALE_BIN, 'serve',
    '--host', LOCAL_HOST,
    '--port', String(n.port),
    '--status-port', String(n.statusPort),
    '--store', layout.storeUrl,
    '--log-level', layout.logLevel,
    ...(layout.workers > 1 ? ['--workers', String(layout.workers)] : []),
  ];
}

function requireExecutable(name: string, debianPackage: string): string {
  const path = findExecutable(name);
  if (path === undefined) {
    throw new Error(
      `${name} not found on PATH; install it (Debian: apt-get install ${debianPackage}, or run scripts/system-deps.sh)`,
    );
  }
  return path;
}

/** A cluster.json whose processes still run means this --dir is in use. */
function refuseIfRunning(dir: string): void {
  if (!existsSync(stateFilePath(dir))) return;
  const alive = clusterProcesses(readClusterState(dir), dir).filter(stillOurs);
  if (alive.length > 0) {
    const list = alive.map((p) => `${p.name} pid ${p.pid}`).join(', ');
    throw new Error(`a cluster is already running in ${dir} (${list}); stop it first: shale cluster down --dir ${dir}`);
  }
}
