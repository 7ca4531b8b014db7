/**
 * Vitest global setup: when KV_BACKENDS names etcd, starts one single-member etcd for the whole
 * run (each test space uses its own key prefix) and publishes its endpoints to the test
 * processes in SHALE_TEST_ETCD; stops it at the end.
 */
import { selectedBackends } from './helpers/backends.js';
import { startEtcd, type EtcdCluster } from './helpers/etcd.js';

let cluster: EtcdCluster | undefined;

export async function setup(): Promise<void> {
  if (!selectedBackends().includes('etcd') || process.env['SHALE_TEST_ETCD'] !== undefined) return;
  cluster = await startEtcd(1);
  process.env['SHALE_TEST_ETCD'] = cluster.endpoints.join(',');
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
}
