/**
 * The KV backends the shared suites (SQL scripts, KV conformance, client integration tests) run
 * against: KV_BACKENDS=embedded,etcd (the default: both; test/global-setup.ts starts the etcd).
 */
export function selectedBackends(): string[] {
  return (process.env['KV_BACKENDS'] ?? 'embedded,etcd')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
