/** The etcd member command line shared by `shale cluster up` and docker/compose.yaml. */
import { describe, expect, it } from 'vitest';
import { ETCD_LIMIT_FLAGS, etcdArgs, initialCluster, type EtcdClusterSpec } from '../../src/cli/cluster/etcd-args.js';

const cluster: EtcdClusterSpec = {
  token: 'tok',
  members: [0, 1, 2].map((i) => ({
    name: `etcd-${i}`,
    dataDir: `/d/etcd-${i}`,
    listenHost: '127.0.0.1',
    advertiseHost: '127.0.0.1',
    clientPort: 2379 + 100 * i,
    peerPort: 2380 + 100 * i,
  })),
};

describe('etcdArgs', () => {
  it('binds one member to 127.0.0.1 and names every peer', () => {
    const args = etcdArgs(cluster.members[1]!, cluster);
    expect(args.slice(0, 9)).toEqual([
      '--name=etcd-1',
      '--data-dir=/d/etcd-1',
      '--listen-client-urls=http://127.0.0.1:2479',
      '--advertise-client-urls=http://127.0.0.1:2479',
      '--listen-peer-urls=http://127.0.0.1:2480',
      '--initial-advertise-peer-urls=http://127.0.0.1:2480',
      '--initial-cluster=etcd-0=http://127.0.0.1:2380,etcd-1=http://127.0.0.1:2480,etcd-2=http://127.0.0.1:2580',
      '--initial-cluster-state=new',
      '--initial-cluster-token=tok',
    ]);
  });

  it('carries the limits the SQL nodes rely on', () => {
    expect(ETCD_LIMIT_FLAGS).toEqual([
      '--max-txn-ops=10000',
      '--max-request-bytes=33554432',
      '--quota-backend-bytes=8589934592',
      '--auto-compaction-retention=0',
    ]);
    const args = etcdArgs(cluster.members[0]!, cluster);
    for (const flag of ETCD_LIMIT_FLAGS) expect(args).toContain(flag);
  });

  it('advertises a container name while listening on every interface', () => {
    const docker: EtcdClusterSpec = {
      token: 't',
      members: [{ name: 'etcd1', dataDir: '/data', listenHost: '0.0.0.0', advertiseHost: 'etcd1', clientPort: 2379, peerPort: 2380 }],
    };
    expect(initialCluster(docker)).toBe('etcd1=http://etcd1:2380');
    expect(etcdArgs(docker.members[0]!, docker)).toContain('--listen-client-urls=http://0.0.0.0:2379');
    expect(etcdArgs(docker.members[0]!, docker)).toContain('--advertise-client-urls=http://etcd1:2379');
  });
});
