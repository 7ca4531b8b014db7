/**
 * `shale cluster down`: stops exactly the processes recorded in cluster.json (HAProxy, then the
 * SQL nodes, then the etcd members), each with SIGTERM and, after 10 s, SIGKILL, and only while
 * the pid still runs the program that was started. Then removes the cluster's files unless
 * --keep-data.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { clusterProcesses, stillOurs, type ClusterProcess, type OwnedProcess } from './ownership.js';
import { stopProcess, type StopOutcome } from './processes.js';
import { readClusterState, stateFilePath, type ClusterState } from './state-file.js';
import { HAPROXY_CONFIG_NAME } from './topology.js';

export interface DownOptions {
  /** Keep the etcd data, logs and config (the next `up` on this --dir resumes the data). */
  readonly keepData: boolean;
  /** SIGTERM to SIGKILL delay per process. */
  readonly graceMs?: number;
}

/** Stops the cluster in `dirArg`; `say` receives one line per process. Throws if any survives. */
export async function clusterDown(dirArg: string, opts: DownOptions, say: (line: string) => void): Promise<void> {
  const dir = resolve(dirArg);
  const state = readClusterState(dir);
  const procs = clusterProcesses(state, dir);
  await stopInOrder(procs, opts.graceMs ?? 10_000, (p, outcome) => say(`${p.name} (pid ${p.pid}): ${describe(outcome)}`));
  const survivors: ClusterProcess[] = procs.filter(stillOurs);
  if (survivors.length > 0) {
    throw new Error(`still running: ${survivors.map((p) => `${p.name} pid ${p.pid}`).join(', ')}; files in ${dir} were kept`);
  }
  if (opts.keepData) {
    rmSync(stateFilePath(dir), { force: true });
    say(`stopped; data and logs kept in ${dir}`);
    return;
  }
  const left = removeClusterFiles(dir, state);
  if (left.length === 0) say(`stopped; removed ${dir}`);
  else say(`stopped; removed the cluster's files but left ${dir}: it also holds ${left.join(', ')}`);
}

/**
 * Stops HAProxy first (no new connections), then the SQL nodes side by side, then the etcd
 * members one at a time: members stopped together each try to hand leadership to a peer that is
 * itself shutting down and take seconds; one by one each stop takes well under a second.
 */
export async function stopInOrder(
  procs: readonly OwnedProcess[],
  graceMs: number,
  report: (p: OwnedProcess, outcome: StopOutcome) => void = () => undefined,
): Promise<void> {
  const stop = async (p: OwnedProcess): Promise<void> => report(p, await stopProcess(p.pid, p.ours, graceMs));
  await Promise.all(procs.filter((p) => p.kind === 'haproxy').map(stop));
  await Promise.all(procs.filter((p) => p.kind === 'node').map(stop));
  for (const p of procs.filter((q) => q.kind === 'etcd')) await stop(p);
}

function describe(outcome: StopOutcome): string {
  switch (outcome) {
    case 'stopped':
      return 'stopped';
    case 'killed':
      return 'did not stop within the grace period; killed';
    case 'not running':
      return 'was not running';
    case 'not ours':
      return 'pid now belongs to another program; left alone';
    case 'still running':
      return 'STILL RUNNING after SIGKILL';
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Removes what `up` created in `dir` (never anything outside it), then `dir` itself if nothing
 * else is left. Returns the names of entries it did not recognise and left in place.
 */
function removeClusterFiles(dir: string, state: ClusterState): string[] {
  const ours = new Set([stateFilePath(dir), `${stateFilePath(dir)}.tmp`, join(dir, HAPROXY_CONFIG_NAME), join(dir, 'logs')]);
  for (const m of state.etcd) ours.add(resolve(m.dataDir));
  const lmdb = /^lmdb:\/\/(.+)$/.exec(state.storeUrl);
  if (lmdb !== null && isAbsolute(lmdb[1]!)) ours.add(resolve(lmdb[1]!));
  for (const path of ours) if (inside(dir, path)) rmSync(path, { recursive: true, force: true });
  if (!existsSync(dir)) return [];
  const left = readdirSync(dir);
  if (left.length === 0) rmSync(dir, { recursive: true, force: true });
  return left;
}
