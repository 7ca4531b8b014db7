/**
 * Readiness probes for `shale cluster up`: a port is free, a port accepts connections, an etcd
 * member or a SQL node reports itself healthy. Each probe answers once; `waitUntil` polls one until it holds.
 */
import { get } from 'node:http';
import { createConnection, createServer } from 'node:net';
import { LOCAL_HOST } from './topology.js';

/** True when nothing listens on host:port (we could bind it). */
export function portIsFree(port: number, host = LOCAL_HOST): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** True when a TCP connection to host:port succeeds within `timeoutMs`. */
export function portAccepts(port: number, host = LOCAL_HOST, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when `GET http://host:clientPort/health` answers `{"health":"true"}` (etcd 3.4). */
export function etcdHealthy(clientPort: number, host = LOCAL_HOST, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get({ host, port: clientPort, path: '/health', timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.statusCode === 200 && healthBody(body)));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/**
 * True when a SQL node's status server answers `GET /health` with 200: every worker process of
 * the node is up and its store answers. (Its SQL port accepts connections earlier: with
 * `--workers` the primary takes them while the workers still start.)
 */
export function nodeHealthy(statusPort: number, host = LOCAL_HOST, timeoutMs = 3_000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get({ host, port: statusPort, path: '/health', timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function healthBody(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && 'health' in parsed && parsed.health === 'true';
  } catch {
    return false;
  }
}

export interface WaitOptions {
  /** What is awaited, for the timeout message ("etcd-0 to report healthy"). */
  readonly what: string;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Checked before every probe: a reason to give up now (the process exited, Ctrl-C). */
  readonly abort?: () => string | undefined;
}

/** Polls `probe` until it returns true; throws on timeout or when `abort` gives a reason. */
export async function waitUntil(probe: () => Promise<boolean>, opts: WaitOptions): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const reason = opts.abort?.();
    if (reason !== undefined) throw new Error(`gave up waiting for ${opts.what}: ${reason}`);
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs / 1000} s waiting for ${opts.what}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}
