/**
 * `<dir>/cluster.json`: what `shale cluster up` started, so `down` and `status` (other processes,
 * maybe much later) know which pids and ports are the cluster's. Read back from `unknown` with
 * every field checked: a hand-edited or truncated file gives an error naming the field.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_FILE_NAME } from './topology.js';

export const STATE_VERSION = 1;

export interface ProcessEntry {
  readonly port: number;
  readonly pid: number;
}

export interface EtcdEntry {
  readonly name: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly pid: number;
  readonly dataDir: string;
}

export interface ClusterState {
  readonly version: typeof STATE_VERSION;
  readonly storeUrl: string;
  readonly haproxy: ProcessEntry;
  readonly nodes: readonly ProcessEntry[];
  readonly etcd: readonly EtcdEntry[];
}

/** A cluster.json that cannot be used; the message names the file and the problem. */
export class ClusterStateError extends Error {
  override readonly name = 'ClusterStateError';
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Reader {
  constructor(private readonly source: string) {}

  fail(path: string, want: string, got: unknown): never {
    const shown = got === undefined ? 'nothing' : JSON.stringify(got);
    throw new ClusterStateError(`${this.source}: ${path} should be ${want}, found ${shown}`);
  }

  obj(v: unknown, path: string): Obj {
    return isObj(v) ? v : this.fail(path, 'an object', v);
  }

  array(v: unknown, path: string): unknown[] {
    return Array.isArray(v) ? v : this.fail(path, 'an array', v);
  }

  string(o: Obj, key: string, path: string): string {
    const v = o[key];
    return typeof v === 'string' && v !== '' ? v : this.fail(`${path}.${key}`, 'a non-empty string', v);
  }

  int(o: Obj, key: string, path: string, min: number, max: number): number {
    const v = o[key];
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
    return this.fail(`${path}.${key}`, `a whole number ${min}-${max}`, v);
  }

  port(o: Obj, key: string, path: string): number {
    return this.int(o, key, path, 1, 65535);
  }

  pid(o: Obj, path: string): number {
    return this.int(o, 'pid', path, 1, 2 ** 31 - 1);
  }

  process(v: unknown, path: string): ProcessEntry {
    const o = this.obj(v, path);
    return { port: this.port(o, 'port', path), pid: this.pid(o, path) };
  }

  etcd(v: unknown, path: string): EtcdEntry {
    const o = this.obj(v, path);
    return {
      name: this.string(o, 'name', path),
      clientPort: this.port(o, 'clientPort', path),
      peerPort: this.port(o, 'peerPort', path),
      pid: this.pid(o, path),
      dataDir: this.string(o, 'dataDir', path),
    };
  }
}

/** Checks a parsed cluster.json; `source` names it in errors. */
export function parseClusterState(value: unknown, source = STATE_FILE_NAME): ClusterState {
  const r = new Reader(source);
  const o = r.obj(value, '(top level)');
  if (o['version'] !== STATE_VERSION) r.fail('version', String(STATE_VERSION), o['version']);
  return {
    version: STATE_VERSION,
    storeUrl: r.string(o, 'storeUrl', '(top level)'),
    haproxy: r.process(o['haproxy'], 'haproxy'),
    nodes: r.array(o['nodes'], 'nodes').map((n, i) => r.process(n, `nodes[${i}]`)),
    etcd: r.array(o['etcd'], 'etcd').map((m, i) => r.etcd(m, `etcd[${i}]`)),
  };
}

export function stateFilePath(dir: string): string {
  return join(dir, STATE_FILE_NAME);
}

/** Reads `<dir>/cluster.json`; a missing file or bad JSON is a ClusterStateError saying so. */
export function readClusterState(dir: string): ClusterState {
  const file = stateFilePath(dir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') {
      throw new ClusterStateError(`no ${file}: no cluster was started with --dir ${dir} (or it was stopped)`);
    }
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ClusterStateError(`${file} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return parseClusterState(parsed, file);
}

/** Writes `<dir>/cluster.json` atomically (temp file + rename). */
export function writeClusterState(dir: string, state: ClusterState): void {
  const file = stateFilePath(dir);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, file);
}
