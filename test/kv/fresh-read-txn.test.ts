/**
 * FreshReadTxn (src/kv/embedded/fresh-read-txn.ts) renews lmdb-js's read transaction only when
 * some process committed since its last renewal, through the add-on function
 * scripts/lmdb-addon-functions.mjs adds. The end-to-end check (a statement on one worker sees a
 * commit acknowledged on the other) is in test/integration/workers.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { open } from 'lmdb';
import { FreshReadTxn } from '../../src/kv/embedded/fresh-read-txn.js';
import { addonFunctions } from '../../src/kv/embedded/lmdb-build.js';
import { tempDir } from './backends.js';

const OPTIONS = { noSubdir: false, maxDbs: 8, noSync: true } as const;

function openData(dir: string) {
  const root = open<Buffer, string>({ path: dir, ...OPTIONS });
  const data = root.openDB<Buffer, Uint8Array>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
  return { root, data };
}

/** Another OS process puts key `k` = `value` into the same directory and exits. */
function putFromOtherProcess(dir: string, value: string): void {
  const script = `import { open } from 'lmdb';
const root = open({ path: ${JSON.stringify(dir)}, ...${JSON.stringify(OPTIONS)} });
const data = root.openDB({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
await data.put(Buffer.from('k'), Buffer.from(${JSON.stringify(value)}));
await root.close();`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() });
}

describe('FreshReadTxn', () => {
  it("reads LMDB's last committed transaction id (one more per commit) and last page", async () => {
    const dir = tempDir('shale-txnid-');
    const { root, data } = openData(dir);
    try {
      const addon = addonFunctions(root);
      expect(addon).toBeDefined();
      const before = addon?.lastTxnId() ?? 0;
      await data.put(Buffer.from('a'), Buffer.from('1'));
      await data.put(Buffer.from('b'), Buffer.from('2'));
      expect(addon?.lastTxnId()).toBe(before + 2);
      const info = (root as unknown as { env: { info(): { lastTxnId: number; lastPageNumber: number } } }).env.info();
      expect(addon?.lastTxnId()).toBe(info.lastTxnId);
      expect(addon?.lastPgno()).toBe(info.lastPageNumber);
    } finally {
      await root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the read txn while nothing was committed, renews it after another process commits', async () => {
    const dir = tempDir('shale-fresh-');
    const { root, data } = openData(dir);
    try {
      await data.put(Buffer.from('k'), Buffer.from('old'));
      const fresh = new FreshReadTxn(data, addonFunctions(root));
      const resets = vi.spyOn(data, 'resetReadTxn');
      const first = fresh.use();
      expect(resets).toHaveBeenCalledTimes(1);
      expect(data.get(Buffer.from('k'), { transaction: first })?.toString()).toBe('old');
      const second = fresh.use();
      expect(resets).toHaveBeenCalledTimes(1);
      expect(second).toBe(first);
      second.done();
      // Synchronous: lmdb-js's own timer cannot renew the read txn meanwhile.
      putFromOtherProcess(dir, 'new');
      const third = fresh.use();
      expect(resets).toHaveBeenCalledTimes(2);
      expect(data.get(Buffer.from('k'), { transaction: third })?.toString()).toBe('new');
      expect(data.get(Buffer.from('k'), { transaction: first })?.toString()).toBe('old');
      third.done();
      first.done();
    } finally {
      await root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
