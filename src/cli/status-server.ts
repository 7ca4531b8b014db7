/**
 * The status HTTP listener (`--status-port`, 10080 by default as in TiDB):
 *   GET /health   200 {"status":"ok"}; 503 {"status":"unavailable","error":...} when the store
 *                 fails or stalls; 404 {"status":"shutting-down"} while the node drains (HAProxy's
 *                 `http-check disable-on-404` then sends it no new connections but, unlike after
 *                 a failed check, keeps the running ones)
 *   GET /metrics  Prometheus text exposition
 * HEAD is accepted wherever GET is. Nothing here changes state, so it needs no authentication;
 * it listens on --status-host (default: --host).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../util/index.js';
import type { Logger } from 'pino';
import type { HealthReport } from './health.js';

export interface StatusHandlers {
  health(): Promise<HealthReport>;
  metrics(): Promise<{ readonly contentType: string; readonly body: string }>;
}

export interface StatusServer {
  readonly port: number;
  close(): Promise<void>;
}

export interface StatusServerOptions {
  readonly host: string;
  readonly port: number;
  readonly handlers: StatusHandlers;
  readonly logger: Logger;
}

export async function startStatusServer(opts: StatusServerOptions): Promise<StatusServer> {
  const server = createServer((req, res) => {
    respond(req, res, opts.handlers).catch((err: unknown) => {
      opts.logger.warn({ event: 'status-error', path: req.url, err: err instanceof Error ? err.message : String(err) }, 'status request failed');
      if (!res.headersSent) send(res, req, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await listen(server, opts.host, opts.port);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : opts.port;
  opts.logger.info({ event: 'status-listening', host: opts.host, port }, 'status HTTP server ready (/health, /metrics)');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function respond(req: IncomingMessage, res: ServerResponse, handlers: StatusHandlers): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/health' && path !== '/metrics') {
    send(res, req, 404, 'text/plain; charset=utf-8', 'not found; try /health or /metrics\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    send(res, req, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    return;
  }
  if (path === '/health') {
    const h = await handlers.health();
    const body = JSON.stringify(h.error === undefined ? { status: h.status } : { status: h.status, error: h.error });
    send(res, req, healthStatusCode(h), 'application/json', `${body}\n`);
    return;
  }
  const m = await handlers.metrics();
  send(res, req, 200, m.contentType, m.body);
}

export function healthStatusCode(h: HealthReport): number {
  if (h.ok) return 200;
  return h.status === 'shutting-down' ? 404 : 503;
}

function send(res: ServerResponse, req: IncomingMessage, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
