/**
 * Reading a client socket through one buffer that every read of the process reuses (net.Socket's
 * `onread` option), instead of Node's default: a fresh 64 KiB allocation for each read, shrunk to
 * what arrived and wrapped in a new ArrayBuffer and Buffer that the garbage collector finalizes
 * later. Each chunk is copied out before the callback returns (small ones into Node's pooled
 * slab), so one buffer serves every connection: JavaScript runs one callback at a time.
 *
 * Node takes `onread` only when it creates the socket; a server's accepted sockets are created
 * inside `net`, so the accepted socket's libuv handle (`_handle`, not a documented API) moves to
 * a new Socket built with `onread`. When the handle is not there in the expected shape (another
 * Node version), nothing changes: the caller gets undefined and listens for 'data' as before.
 */
import { Socket } from 'node:net';

const READ_BUFFER_BYTES = 64 * 1024;
let readBuffer: Buffer | undefined;

interface HandleHolder {
  _handle?: unknown;
}

/** `socket`'s libuv stream handle, if it has one a new Socket can take over. */
function adoptableHandle(socket: Socket): object | undefined {
  const handle = (socket as unknown as HandleHolder)._handle;
  if (typeof handle !== 'object' || handle === null) return undefined;
  const h = handle as { readStart?: unknown; readStop?: unknown; writeBuffer?: unknown };
  const streamLike = typeof h.readStart === 'function' && typeof h.readStop === 'function' && typeof h.writeBuffer === 'function';
  return streamLike ? handle : undefined;
}

/**
 * Moves `socket`'s connection to a new Socket whose reads land in the shared buffer and reach
 * `onChunk` as a copy (the decoder keeps views of it). Bytes the old socket had already read are
 * passed on first, in a microtask. Returns undefined (socket untouched) when the handle cannot be
 * adopted.
 */
export function readThroughSharedBuffer(socket: Socket, onChunk: (chunk: Buffer) => void): Socket | undefined {
  const handle = adoptableHandle(socket);
  // A socket that already saw its end (never the case in the tick it was accepted) stays as it is.
  if (handle === undefined || socket.destroyed || !socket.readable) return undefined;
  const early: unknown = socket.read();
  (socket as unknown as HandleHolder)._handle = null;
  socket.destroy();
  readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
  const opts = {
    handle,
    readable: true,
    writable: true,
    onread: {
      buffer: readBuffer,
      callback: (n: number, buf: Uint8Array): boolean => {
        onChunk(Buffer.from(buf.subarray(0, n)));
        return true;
      },
    },
  };
  const adopted = new Socket(opts as ConstructorParameters<typeof Socket>[0]);
  // After the caller has the new socket, and before anything it reads (poll phase, later).
  if (Buffer.isBuffer(early) && early.length > 0) queueMicrotask(() => onChunk(early));
  return adopted;
}
