import type { Server } from 'node:net';

/** `server.listen(port, host)` as a promise that rejects on the listen error (e.g. EADDRINUSE). */
export function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
