/**
 * The one place that says how an etcd member of a ShaleDB cluster is started: `shale cluster up`
 * and docker/compose.yaml both use these flags (test/integration/docker-files.test.ts checks the
 * compose file against `etcdArgs`).
 */

/**
 * Limits ShaleDB relies on (see reference/etcd-notes.md, "Limits"): large write sets commit as one
 * Txn (10000 ops, 32 MiB requests), an 8 GiB backend quota, and no automatic compaction because
 * the SQL nodes compact below their oldest running snapshot themselves.
 */
export const ETCD_LIMIT_FLAGS: readonly string[] = [
  '--max-txn-ops=10000',
  '--max-request-bytes=33554432',
  '--quota-backend-bytes=8589934592',
  '--auto-compaction-retention=0',
];

/** Structured logs on stderr (no journald probing), at info level. */
export const ETCD_LOG_FLAGS: readonly string[] = ['--logger=zap', '--log-outputs=stderr', '--log-level=info'];

export interface EtcdMemberSpec {
  readonly name: string;
  readonly dataDir: string;
  /** Address the member binds (127.0.0.1 locally, 0.0.0.0 in a container). */
  readonly listenHost: string;
  /** Address other members and clients use to reach it (127.0.0.1, or the compose service name). */
  readonly advertiseHost: string;
  readonly clientPort: number;
  readonly peerPort: number;
}

export interface EtcdClusterSpec {
  /** Unique per cluster, so members of two clusters never join each other. */
  readonly token: string;
  readonly members: readonly EtcdMemberSpec[];
}

function url(host: string, port: number): string {
  return `http://${host}:${port}`;
}

/** The `--initial-cluster` value: `name=peerURL,...` for every member. */
export function initialCluster(cluster: EtcdClusterSpec): string {
  return cluster.members.map((m) => `${m.name}=${url(m.advertiseHost, m.peerPort)}`).join(',');
}

/** Command-line arguments (without the `etcd` binary) that start `member` of `cluster`. */
export function etcdArgs(member: EtcdMemberSpec, cluster: EtcdClusterSpec): string[] {
  return [
    `--name=${member.name}`,
    `--data-dir=${member.dataDir}`,
    `--listen-client-urls=${url(member.listenHost, member.clientPort)}`,
    `--advertise-client-urls=${url(member.advertiseHost, member.clientPort)}`,
    `--listen-peer-urls=${url(member.listenHost, member.peerPort)}`,
    `--initial-advertise-peer-urls=${url(member.advertiseHost, member.peerPort)}`,
    `--initial-cluster=${initialCluster(cluster)}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${cluster.token}`,
    ...ETCD_LIMIT_FLAGS,
    ...ETCD_LOG_FLAGS,
  ];
}
