/** cluster.json: written by `up`, read back and validated by `down` and `status`. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClusterStateError,
  parseClusterState,
  readClusterState,
  writeClusterState,
  type ClusterState,
} from '../../src/cli/cluster/state-file.js';

const state: ClusterState = {
  version: 1,
  storeUrl: 'etcd://127.0.0.1:2379,127.0.0.1:2479,127.0.0.1:2579',
  haproxy: { port: 4000, pid: 100 },
  nodes: [
    { port: 4001, pid: 101 },
    { port: 4002, pid: 102 },
  ],
  etcd: [0, 1, 2].map((i) => ({ name: `etcd-${i}`, clientPort: 2379 + 100 * i, peerPort: 2380 + 100 * i, pid: 90 + i, dataDir: `/c/etcd-${i}` })),
};

const dirs: string[] = [];
function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shale-state-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('cluster.json', () => {
  it('round-trips through the file', () => {
    const dir = tmp();
    writeClusterState(dir, state);
    expect(readClusterState(dir)).toEqual(state);
  });

  it('says so when there is no file', () => {
    const dir = tmp();
    expect(() => readClusterState(dir)).toThrow(ClusterStateError);
    expect(() => readClusterState(dir)).toThrow(/no .*cluster\.json: no cluster was started with --dir/);
  });

  it('reports malformed JSON with the file name', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'cluster.json'), '{"version": 1, "nodes": [');
    expect(() => readClusterState(dir)).toThrow(/cluster\.json is not valid JSON/);
  });

  it.each([
    [null, /\(top level\) should be an object, found null/],
    [{ ...state, version: 2 }, /version should be 1, found 2/],
    [{ ...state, storeUrl: '' }, /storeUrl should be a non-empty string/],
    [{ ...state, haproxy: undefined }, /haproxy should be an object, found nothing/],
    [{ ...state, nodes: {} }, /nodes should be an array/],
    [{ ...state, nodes: [{ port: 4001, pid: '7' }] }, /nodes\[0\]\.pid should be a whole number/],
    [{ ...state, nodes: [{ port: 70000, pid: 7 }] }, /nodes\[0\]\.port should be a whole number 1-65535, found 70000/],
    [{ ...state, etcd: [{ ...state.etcd[0], dataDir: 5 }] }, /etcd\[0\]\.dataDir should be a non-empty string, found 5/],
    [{ ...state, etcd: [{ ...state.etcd[0], pid: 0 }] }, /etcd\[0\]\.pid should be a whole number/],
  ])('rejects %j', (value, message) => {
    expect(() => parseClusterState(value, 'x/cluster.json')).toThrow(message);
    expect(() => parseClusterState(value, 'x/cluster.json')).toThrow(/^x\/cluster\.json: /);
  });

  it('drops fields it does not know', () => {
    expect(parseClusterState({ ...state, extra: true })).toEqual(state);
  });
});
