import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readThroughSharedBuffer } from '../../src/server/socket-input.js';

/** A loopback server whose accepted sockets go through readThroughSharedBuffer. */
async function adoptingServer(onAdopted: (socket: Socket | undefined, chunks: Buffer[]) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    const adopted = readThroughSharedBuffer(socket, (chunk) => chunks.push(chunk));
    onAdopted(adopted, chunks);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      if (check()) resolve();
      else if (Date.now() - started > 5000) reject(new Error('timed out'));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

describe('readThroughSharedBuffer', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanup.splice(0)) c();
  });

  it('delivers every read as its own copy, and the adopted socket writes and closes', async () => {
    let adopted: Socket | undefined;
    let chunks: Buffer[] = [];
    const { server, port } = await adoptingServer((s, c) => {
      adopted = s;
      chunks = c;
      s?.write('hello');
    });
    cleanup.push(() => server.close());
    const client = connect(port, '127.0.0.1');
    cleanup.push(() => client.destroy());
    const greeting = await new Promise<string>((resolve) => client.once('data', (d: Buffer) => resolve(d.toString())));
    expect(greeting).toBe('hello');
    expect(adopted).toBeDefined();

    // Two reads, each filling the shared buffer from its start: the first copy must survive the second.
    client.write('a'.repeat(1000));
    await until(() => chunks.reduce((n, c) => n + c.length, 0) >= 1000);
    client.write('b'.repeat(70_000));
    await until(() => chunks.reduce((n, c) => n + c.length, 0) >= 71_000);
    const all = Buffer.concat(chunks).toString();
    expect(all).toBe('a'.repeat(1000) + 'b'.repeat(70_000));
    expect(chunks[0]?.toString()).toBe('a'.repeat(1000));

    const closed = new Promise<void>((resolve) => adopted?.once('close', () => resolve()));
    client.end();
    adopted?.end();
    await closed;
  });

  it('pause() stops reading and resume() delivers what waited in the kernel', async () => {
    let adopted: Socket | undefined;
    let chunks: Buffer[] = [];
    const { server, port } = await adoptingServer((s, c) => {
      adopted = s;
      chunks = c;
      s?.pause();
      s?.write('ready');
    });
    cleanup.push(() => server.close());
    const client = connect(port, '127.0.0.1');
    cleanup.push(() => client.destroy());
    await new Promise<void>((resolve) => client.once('data', () => resolve()));
    client.write('x'.repeat(100));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chunks.length).toBe(0);
    adopted?.resume();
    await until(() => chunks.reduce((n, c) => n + c.length, 0) >= 100);
    expect(Buffer.concat(chunks).toString()).toBe('x'.repeat(100));
  });

  it('passes on bytes the accepted socket had read before it was adopted, ahead of later ones', async () => {
    const chunks: Buffer[] = [];
    const server = createServer((socket) => {
      // The client writes at once; the accepted socket reads that into its own buffer meanwhile.
      setTimeout(() => {
        const adopted = readThroughSharedBuffer(socket, (chunk) => chunks.push(chunk));
        adopted?.write('go');
      }, 100);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => server.close());
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1', () => client.write('early'));
    cleanup.push(() => client.destroy());
    await new Promise<void>((resolve) => client.once('data', () => resolve()));
    client.write('late');
    await until(() => Buffer.concat(chunks).length >= 9);
    expect(Buffer.concat(chunks).toString()).toBe('earlylate');
  });

  it('sees the end of a client that closes at once', async () => {
    let ended: Promise<void> | undefined;
    const { server, port } = await adoptingServer((s) => {
      ended = new Promise<void>((resolve) => s?.once('close', () => resolve()));
    });
    cleanup.push(() => server.close());
    const client = connect(port, '127.0.0.1', () => client.end());
    cleanup.push(() => client.destroy());
    await until(() => ended !== undefined);
    await ended;
  });

  it('leaves a socket without a libuv handle alone', () => {
    const plain = new Duplex({ read: () => undefined, write: (_c, _e, cb) => cb() }) as unknown as Socket;
    expect(readThroughSharedBuffer(plain, () => undefined)).toBeUndefined();
    expect((plain as unknown as Duplex).destroyed).toBe(false);
  });
});
