/**
 * etcd store URLs: `etcd://host:port[,host:port...][/prefix]`.
 * The optional path is a key namespace inside the cluster, so several ShaleDB databases (or
 * test runs) can share one etcd cluster; the default is the empty namespace.
 */
export interface EtcdUrl {
  readonly endpoints: readonly string[];
  /** Key namespace without slashes, '' for none. */
  readonly prefix: string;
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export function parseEtcdUrl(url: string): EtcdUrl {
  const m = /^etcd:\/\/([^/]*)(?:\/(.*))?$/i.exec(url.trim());
  if (m === null) throw new Error(`bad etcd store URL '${url}': expected etcd://host:port[,host:port...][/prefix]`);
  const endpoints = (m[1] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (endpoints.length === 0) throw new Error(`etcd store URL '${url}' names no endpoint`);
  for (const ep of endpoints) {
    const hp = HOST_PORT.exec(ep);
    const port = hp === null ? NaN : Number(hp[2]);
    if (hp === null || port < 1 || port > 65535) throw new Error(`bad etcd endpoint '${ep}' in '${url}': expected host:port`);
  }
  const prefix = (m[2] ?? '').replace(/\/+$/, '');
  if (!/^[A-Za-z0-9_.-]*$/.test(prefix)) throw new Error(`bad etcd key prefix '${prefix}' in '${url}': use letters, digits, _ . -`);
  return { endpoints, prefix };
}
