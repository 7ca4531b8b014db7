/** The status HTTP server and the store health check behind /health. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { Snapshot, Store } from '../../src/kv/index.js';
import { HEALTH_OK, StoreHealth, type HealthReport } from '../../src/cli/health.js';
import { startStatusServer, type StatusServer } from '../../src/cli/status-server.js';

const logger = pino({ level: 'silent' });

describe('status HTTP server', () => {
  let health: HealthReport = HEALTH_OK;
  let server: StatusServer;
  const url = (path: string): string => `http://127.0.0.1:${server.port}${path}`;

  beforeAll(async () => {
    server = await startStatusServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      handlers: {
        health: () => Promise.resolve(health),
        metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'shale_up 1\n' }),
      },
    });
  });
  afterAll(() => server.close());

  it('GET /health: 200 ok, 503 when the store is unavailable, 404 while shutting down', async () => {
    health = HEALTH_OK;
    let res = await fetch(url('/health'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ status: 'ok' });
    health = { ok: false, status: 'unavailable', error: 'etcd down' };
    res = await fetch(url('/health'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', error: 'etcd down' });
    health = { ok: false, status: 'shutting-down' };
    res = await fetch(url('/health'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'shutting-down' });
  });

  it('GET /metrics answers the exposition with its content type; HEAD has no body', async () => {
    const res = await fetch(url('/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('version=0.0.4');
    expect(await res.text()).toBe('shale_up 1\n');
    const head = await fetch(url('/metrics'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('404 for other paths, 405 for other methods', async () => {
    expect((await fetch(url('/'))).status).toBe(404);
    const post = await fetch(url('/health'), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

/** A store whose snapshot() does what `next` says. */
function controlledStore(): { store: Store; next: { mode: 'ok' | 'fail' | 'hang' }; released: () => number } {
  const next: { mode: 'ok' | 'fail' | 'hang' } = { mode: 'ok' };
  let released = 0;
  const snap: Snapshot = {
    startTs: 1n,
    get: () => Promise.resolve(undefined),
    batchGet: () => Promise.resolve([]),
    scan: () => Promise.resolve([]),
    release: () => {
      released++;
    },
  };
  const store: Store = {
    url: 'fake://',
    snapshot: () => {
      if (next.mode === 'fail') return Promise.reject(new Error('no quorum'));
      if (next.mode === 'hang') return new Promise<Snapshot>((resolve) => setTimeout(() => resolve(snap), 400));
      return Promise.resolve(snap);
    },
    commit: () => Promise.resolve(1n),
    deleteRange: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { store, next, released: () => released };
}

describe('StoreHealth', () => {
  it('is ok when a snapshot can be taken (and releases it), unavailable when it fails', async () => {
    const c = controlledStore();
    const h = new StoreHealth(c.store, { waitMs: 50, stallMs: 200 });
    expect(await h.check()).toEqual(HEALTH_OK);
    expect(c.released()).toBe(1);
    c.next.mode = 'fail';
    expect(await h.check()).toEqual({ ok: false, status: 'unavailable', error: 'no quorum' });
    c.next.mode = 'ok';
    expect((await h.check()).ok).toBe(true);
  });

  it('rides out a short stall after a good probe, reports a long one, and releases the late snapshot', async () => {
    const c = controlledStore();
    const h = new StoreHealth(c.store, { waitMs: 50, stallMs: 200 });
    expect((await h.check()).ok).toBe(true);
    c.next.mode = 'hang';
    expect((await h.check()).ok).toBe(true); // pending ~50 ms, the last probe was fine
    await new Promise((r) => setTimeout(r, 200));
    const stalled = await h.check(); // the same probe, now pending > stallMs
    expect(stalled.ok).toBe(false);
    expect(stalled.error).toMatch(/has not answered for \d+ ms/);
    await new Promise((r) => setTimeout(r, 250));
    expect(c.released()).toBe(2);
  });

  it('a stall without any good probe before is unavailable at once', async () => {
    const c = controlledStore();
    c.next.mode = 'hang';
    const h = new StoreHealth(c.store, { waitMs: 20, stallMs: 10_000 });
    expect((await h.check()).status).toBe('unavailable');
  });

  it('answers shutting-down once stopping', async () => {
    const h = new StoreHealth(controlledStore().store);
    h.markStopping();
    expect(await h.check()).toEqual({ ok: false, status: 'shutting-down' });
  });
});
