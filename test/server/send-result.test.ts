import { describe, expect, it } from 'vitest';
import { PacketDecoder, type Packet } from '../../src/server/packet-decoder.js';
import { PacketWriter } from '../../src/server/packet-writer.js';
import { FLUSH_AT, type ColumnsCache } from '../../src/server/result-writer.js';
import { BrokenResponse } from '../../src/server/protocol-errors.js';
import { sendResult, type ResultTarget } from '../../src/server/send-result.js';
import type { ExecResult } from '../../src/sql/session/types.js';
import { makeType, type Value } from '../../src/types/index.js';
import { col } from './helpers/fake-engine.js';

/**
 * A connection stand-in whose socket is "full" on every flush: flush() hands back a promise
 * (as Connection.flush does when socket.write returns false) and keeps what was sent.
 */
class Target implements ResultTarget {
  readonly writer = new PacketWriter();
  readonly columnsCache: ColumnsCache = new WeakMap();
  readonly collationId = 45;
  flushCount = 0;
  readonly sent: Buffer[] = [];
  constructor(private readonly full: boolean) {}

  status(): number {
    return 2;
  }

  flush(): Promise<void> | undefined {
    if (this.writer.pos === 0) return undefined;
    this.flushCount++;
    this.sent.push(Buffer.from(this.writer.take()));
    return this.full ? new Promise((resolve) => setImmediate(resolve)) : undefined;
  }

  /** Everything flushed plus what the writer still holds, as packets. */
  packets(): Packet[] {
    const out: Packet[] = [];
    const d = new PacketDecoder({ packet: (p) => out.push(p), tooLarge: () => undefined }, 1 << 30);
    for (const b of this.sent) d.push(b);
    d.push(Buffer.from(this.writer.take()));
    return out;
  }
}

const COLUMNS = [col('s', makeType('varchar', { length: 200 }))];
const text = 'x'.repeat(150);

function rowsResult(rows: ReadonlyArray<readonly Value[]>): ExecResult {
  return { kind: 'rows', columns: COLUMNS, rows, warnings: 0 };
}

/** Enough rows to pass FLUSH_AT about three times. */
function manyRows(): Value[][] {
  return Array.from({ length: Math.ceil((3 * FLUSH_AT) / text.length) }, () => [text]);
}

/** A row whose first value throws when the writer reads it (an encoding failure). */
function failingRow(): Value[] {
  const row: Value[] = [];
  Object.defineProperty(row, 0, { get: () => { throw new Error('boom'); } });
  row.length = 1;
  return row;
}

describe('sendResult', () => {
  it('writes a small result set without a promise', () => {
    const t = new Target(true);
    expect(sendResult(t, rowsResult([['a'], ['b']]), false, true)).toBeUndefined();
    const packets = t.packets();
    // column count, 1 column definition, EOF, 2 rows, EOF
    expect(packets).toHaveLength(6);
    expect(packets.map((p) => p.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(t.flushCount).toBe(0);
  });

  it('waits for each full-socket flush and still sends every row and the final EOF', async () => {
    const t = new Target(true);
    const rows = manyRows();
    const pending = sendResult(t, rowsResult(rows), false, false);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    const packets = t.packets();
    expect(t.flushCount).toBeGreaterThanOrEqual(2);
    expect(packets).toHaveLength(3 + rows.length + 1);
    const last = packets[packets.length - 1] as Packet;
    expect(last.payload[0]).toBe(0xfe);
    expect(packets.map((p) => p.seq)).toEqual(packets.map((_, i) => i & 0xff));
  });

  it('rolls a failed response back before anything was flushed and throws at once', () => {
    const t = new Target(true);
    t.writer.seq = 1;
    expect(() => sendResult(t, rowsResult([['a'], failingRow()]), false, true)).toThrow('boom');
    expect(t.writer.pos).toBe(0);
    expect(t.writer.seq).toBe(1);
  });

  it('reports a failure after part of the response went out as BrokenResponse', async () => {
    const t = new Target(true);
    const rows: Value[][] = [...manyRows(), failingRow()];
    const pending = sendResult(t, rowsResult(rows), false, false);
    await expect(pending).rejects.toBeInstanceOf(BrokenResponse);
    expect(t.flushCount).toBeGreaterThan(0);
  });
});
