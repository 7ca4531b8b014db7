/** Port and file layout of `shale cluster up` (pure). */
import { describe, expect, it } from 'vitest';
import { etcdStoreUrl, planCluster, portClaims, type ClusterOptions } from '../../src/cli/cluster/topology.js';

const defaults: ClusterOptions = {
  dir: '/tmp/shale-cluster',
  etcdMembers: 3,
  nodes: 2,
  port: 4000,
  nodeBasePort: 4001,
  etcdBasePort: 2379,
  workers: 1,
  logLevel: 'info',
};

describe('planCluster', () => {
  it('lays out the documented default ports and files', () => {
    const layout = planCluster(defaults);
    expect(layout.etcd.map((m) => [m.name, m.clientPort, m.peerPort])).toEqual([
      ['etcd-0', 2379, 2380],
      ['etcd-1', 2479, 2480],
      ['etcd-2', 2579, 2580],
    ]);
    expect(layout.etcd[1]!.dataDir).toBe('/tmp/shale-cluster/etcd-1');
    expect(layout.etcd[2]!.logFile).toBe('/tmp/shale-cluster/logs/etcd-2.log');
    expect(layout.nodes.map((n) => [n.name, n.port, n.statusPort, n.logFile])).toEqual([
      ['node0', 4001, 5001, '/tmp/shale-cluster/logs/node-0.log'],
      ['node1', 4002, 5002, '/tmp/shale-cluster/logs/node-1.log'],
    ]);
    expect(layout.haproxyPort).toBe(4000);
    expect(layout.stateFile).toBe('/tmp/shale-cluster/cluster.json');
    expect(layout.haproxyConfigFile).toBe('/tmp/shale-cluster/haproxy.cfg');
    expect(layout.storeUrl).toBe('etcd://127.0.0.1:2379,127.0.0.1:2479,127.0.0.1:2579');
  });

  it('resolves a relative --dir and honours --store and other bases', () => {
    const layout = planCluster({ ...defaults, dir: 'rel', store: 'lmdb:///tmp/x', nodes: 3, nodeBasePort: 5000, etcdBasePort: 30000 });
    expect(layout.dir).toBe(`${process.cwd()}/rel`);
    expect(layout.storeUrl).toBe('lmdb:///tmp/x');
    expect(layout.nodes.map((n) => n.port)).toEqual([5000, 5001, 5002]);
    expect(layout.etcd.map((m) => m.peerPort)).toEqual([30001, 30101, 30201]);
  });

  it('lists every port with its owner in start order', () => {
    const claims = portClaims(planCluster({ ...defaults, etcdMembers: 1, nodes: 1 }));
    expect(claims).toEqual([
      { port: 2379, owner: 'etcd-0 client' },
      { port: 2380, owner: 'etcd-0 peer' },
      { port: 4001, owner: 'SQL node0' },
      { port: 5001, owner: 'SQL node0 status' },
      { port: 4000, owner: 'HAProxy' },
    ]);
  });

  it('rejects layouts whose ports collide or overflow, naming the port', () => {
    expect(() => planCluster({ ...defaults, nodeBasePort: 3999 })).toThrow(/port 4000 would be used by both SQL node1 and HAProxy/);
    expect(() => planCluster({ ...defaults, nodeBasePort: 2479 })).toThrow(/port 2479 would be used by both etcd-1 client and SQL node0/);
    expect(() => planCluster({ ...defaults, etcdBasePort: 65450 })).toThrow(/port 65550 for etcd-1 client is outside 1-65535/);
    expect(() => planCluster({ ...defaults, nodeBasePort: 1379 })).toThrow(/port 2379 would be used by both etcd-0 client and SQL node0 status/);
    expect(() => planCluster({ ...defaults, nodeBasePort: 64600 })).toThrow(/port 65600 for SQL node0 status is outside 1-65535/);
  });

  it('needs --store when no etcd member is started, and at least one node', () => {
    expect(() => planCluster({ ...defaults, etcdMembers: 0 })).toThrow(/--etcd-members 0 needs --store/);
    expect(planCluster({ ...defaults, etcdMembers: 0, store: 'lmdb:///tmp/s' }).etcd).toEqual([]);
    expect(() => planCluster({ ...defaults, nodes: 0 })).toThrow(/--nodes must be at least 1/);
  });

  it('formats etcd store URLs', () => {
    expect(etcdStoreUrl([1, 2])).toBe('etcd://127.0.0.1:1,127.0.0.1:2');
    expect(etcdStoreUrl([2379], 'etcd1')).toBe('etcd://etcd1:2379');
  });
});
