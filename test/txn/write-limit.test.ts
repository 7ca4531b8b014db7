/** Txn.writeBytes and limitWrites: exact byte accounting through overwrites, deletes and statement rollbacks. */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/kv/index.js';
import { createTxnStore, type TxnStore } from '../../src/txn/index.js';
import { WriteBuffer } from '../../src/txn/write-buffer.js';
import { utf8Encode } from '../../src/util/index.js';
import { tempDir } from '../kv/backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);

describe('WriteBuffer.bytes', () => {
  it('counts keys and values of live entries and follows rollbackTo', () => {
    const buf = new WriteBuffer();
    buf.write(b('k1'), b('12345'));
    expect(buf.bytes).toBe(7);
    const cp = buf.checkpoint();
    buf.write(b('k1'), b('1'));
    buf.write(b('k2'), null);
    buf.write(b('k3'), b('abc'));
    expect(buf.bytes).toBe(3 + 2 + 5);
    buf.rollbackTo(cp);
    expect(buf.bytes).toBe(7);
    buf.rollbackTo(0);
    expect(buf.bytes).toBe(0);
  });
});

describe('Txn.limitWrites', () => {
  let dir: string;
  let kv: Store;
  let txns: TxnStore;
  beforeEach(async () => {
    dir = tempDir('shale-txn-limit-');
    kv = await openStore(dir);
    txns = createTxnStore(kv);
  });
  afterEach(async () => {
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('throws 1105 naming the setting once the buffer is over the limit; rolling back the statement keeps the rest', async () => {
    const txn = await txns.begin();
    txn.limitWrites(20, 'shale_txn_max_bytes');
    txn.put(b('a'), b('0123456789'));
    const cp = txn.checkpoint();
    expect(() => txn.put(b('b'), b('0123456789'))).toThrow(
      expect.objectContaining({ errno: 1105, message: 'Transaction is too large: buffered writes reach 22 bytes, over shale_txn_max_bytes = 20' }),
    );
    txn.rollbackTo(cp);
    expect(txn.writeBytes).toBe(11);
    txn.put(b('c'), b('x'));
    await txn.commit();
    const check = await txns.begin();
    expect(await check.get(b('b'))).toBeUndefined();
    expect(await check.get(b('c'))).toEqual(b('x'));
    check.rollback();
  });
});
