/** The harness never hangs on a server that stopped answering: sysbench is killed past its deadline. */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sysbench, SysbenchTimeout } from '../../sysbench/bench/sysbench-cmd.js';

describe('sysbench runner', () => {
  it('kills sysbench and rejects with SysbenchTimeout when the server never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s.on('error', () => undefined))); // accepts, never sends the greeting; a killed client may reset
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const run = sysbench(port, { tables: 1, tableSize: 10 }, 'oltp_point_select', 'run', ['--threads=1', '--time=1'], 1500);
      await expect(run).rejects.toBeInstanceOf(SysbenchTimeout);
      await expect(run).rejects.toThrow(/did not finish within 1500 ms/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 20_000);
});
