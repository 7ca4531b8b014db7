import { describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import {
  checkpointPath,
  currentBootId,
  decodeCheckpoint,
  encodeCheckpoint,
  readCheckpoint,
  readMetaPages,
  writeCheckpoint,
  type Checkpoint,
} from '../../src/kv/embedded/checkpoint-file.js';
import { tempDir } from './backends.js';

const HEAD = 4 + 4 + 4 + 8 + 8 + 36;

function sample(): Checkpoint {
  return { pageSize: 4096, gen: 12n, seq: 0x1_0000_0001n, bootId: randomUUID(), metas: randomBytes(8192) };
}

function expectSame(got: Checkpoint | undefined, want: Checkpoint): void {
  expect(got).toBeDefined();
  if (got === undefined) return;
  expect(got.pageSize).toBe(want.pageSize);
  expect(got.gen).toBe(want.gen);
  expect(got.seq).toBe(want.seq);
  expect(got.bootId).toBe(want.bootId);
  expect(got.metas.equals(want.metas)).toBe(true);
}

describe('checkpoint file encoding', () => {
  it('round-trips through encode/decode with the documented layout', () => {
    const c = sample();
    const buf = encodeCheckpoint(c);
    expect(buf.length).toBe(HEAD + 8192 + 4);
    expect(buf.toString('latin1', 0, 4)).toBe('SHCK');
    expect(buf.readUInt32LE(4)).toBe(1);
    expect(buf.readUInt32LE(8)).toBe(4096);
    expect(buf.readBigUInt64LE(12)).toBe(12n);
    expect(buf.readBigUInt64LE(20)).toBe(0x1_0000_0001n);
    expect(buf.toString('latin1', 28, 64)).toBe(c.bootId);
    expect(buf.subarray(HEAD, HEAD + 8192).equals(c.metas)).toBe(true);
    expectSame(decodeCheckpoint(buf), c);
    // The decoded metas do not alias the input buffer.
    const decoded = decodeCheckpoint(buf);
    buf[HEAD] = (buf[HEAD] as number) ^ 0xff;
    expect(decoded.metas.equals(c.metas)).toBe(true);
  });

  it('round-trips an unknown (empty) boot id and extreme gen/seq', () => {
    const c: Checkpoint = { pageSize: 8192, gen: 0n, seq: 2n ** 64n - 1n, bootId: '', metas: randomBytes(16384) };
    expectSame(decodeCheckpoint(encodeCheckpoint(c)), c);
  });

  it('rejects the file when any one byte is damaged', () => {
    const buf = encodeCheckpoint(sample());
    const positions = new Set<number>([0, 3, 4, 8, 12, 20, 28, 63, HEAD, buf.length - 5, buf.length - 4, buf.length - 1]);
    while (positions.size < 50) positions.add(Math.floor(Math.random() * buf.length));
    for (const at of positions) {
      const bad = Buffer.from(buf);
      bad[at] = (bad[at] as number) ^ 0x01;
      expect(() => decodeCheckpoint(bad), `byte ${at}`).toThrow(/checkpoint/);
    }
    expect(() => decodeCheckpoint(buf)).not.toThrow();
  });

  it('rejects a file of the wrong length', () => {
    const c = sample();
    const buf = encodeCheckpoint(c);
    expect(() => decodeCheckpoint(buf.subarray(0, buf.length - 1))).toThrow();
    expect(() => decodeCheckpoint(Buffer.concat([buf, Buffer.alloc(1)]))).toThrow();
    expect(() => decodeCheckpoint(buf.subarray(0, HEAD + 3))).toThrow(/not a ShaleDB checkpoint/);
    expect(() => decodeCheckpoint(Buffer.alloc(0))).toThrow(/not a ShaleDB checkpoint/);
    // Checksummed correctly but with metas that are not two pages long.
    const short = encodeCheckpoint({ ...c, metas: c.metas.subarray(0, 4096) });
    expect(() => decodeCheckpoint(short)).toThrow(/wrong length/);
  });
});

describe('checkpoint file on disk', () => {
  it('writeCheckpoint then readCheckpoint round-trips and replaces an earlier one', () => {
    const dir = tempDir('shale-ckpt-');
    try {
      expect(readCheckpoint(dir)).toBeUndefined();
      const first = sample();
      writeCheckpoint(dir, first);
      expectSame(readCheckpoint(dir), first);
      const second = { ...sample(), gen: 13n, seq: 99n };
      writeCheckpoint(dir, second);
      expectSame(readCheckpoint(dir), second);
      expect(readFileSync(checkpointPath(dir)).equals(encodeCheckpoint(second))).toBe(true);
      expect(existsSync(join(dir, 'checkpoint.tmp'))).toBe(false);
      expect(readdirSync(dir)).toEqual(['checkpoint']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('readCheckpoint names the file when it is damaged', () => {
    const dir = tempDir('shale-ckpt-');
    try {
      const buf = encodeCheckpoint(sample());
      buf[40] = (buf[40] as number) ^ 0x10;
      writeFileSync(checkpointPath(dir), buf);
      expect(() => readCheckpoint(dir)).toThrow(`${checkpointPath(dir)}: checkpoint file fails its checksum`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readMetaPages', () => {
  it("reads the page size and both meta pages of a real LMDB data file", async () => {
    const dir = tempDir('shale-meta-');
    try {
      const env = open({ path: dir, noSubdir: false });
      for (let i = 0; i < 20; i++) env.putSync(`key-${i}`, `value-${i}`);
      await env.close();
      const file = join(dir, 'data.mdb');
      const fd = openSync(file, 'r');
      let got: { pageSize: number; metas: Buffer };
      try {
        got = readMetaPages(fd);
      } finally {
        closeSync(fd);
      }
      expect(got.pageSize).toBeGreaterThanOrEqual(4096);
      expect(got.pageSize).toBeLessThanOrEqual(65536);
      expect(got.pageSize & (got.pageSize - 1)).toBe(0);
      expect(got.metas.length).toBe(2 * got.pageSize);
      expect(got.metas.equals(readFileSync(file).subarray(0, 2 * got.pageSize))).toBe(true);
      // The second meta page carries the same magic and page size as the first.
      const first = got.metas.subarray(0, 64).indexOf(Buffer.from([0xde, 0xc0, 0xef, 0xbe]));
      expect(first).toBeGreaterThanOrEqual(0);
      expect(got.metas.readUInt32LE(got.pageSize + first)).toBe(0xbeefc0de);
      expect(got.metas.readUInt32LE(got.pageSize + first + 24)).toBe(got.pageSize);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a file whose first page is not an LMDB meta page', () => {
    const dir = tempDir('shale-meta-');
    try {
      const file = join(dir, 'data.mdb');
      writeFileSync(file, Buffer.alloc(8192));
      const fd = openSync(file, 'r');
      try {
        expect(() => readMetaPages(fd)).toThrow(/meta page not recognised/);
      } finally {
        closeSync(fd);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a data file cut short inside its meta pages', () => {
    const dir = tempDir('shale-meta-');
    try {
      // A hand-made meta header: page header (16 bytes), magic, then md_pad = 4096 at magic + 24.
      const page = Buffer.alloc(6000);
      page.writeUInt32LE(0xbeefc0de, 16);
      page.writeUInt32LE(4096, 16 + 24);
      const file = join(dir, 'data.mdb');
      writeFileSync(file, page);
      const fd = openSync(file, 'r');
      try {
        expect(() => readMetaPages(fd)).toThrow(/shorter than its meta pages/);
      } finally {
        closeSync(fd);
      }
      writeFileSync(file, Buffer.concat([page, Buffer.alloc(8192 - page.length)]));
      const fd2 = openSync(file, 'r');
      try {
        expect(readMetaPages(fd2).pageSize).toBe(4096);
      } finally {
        closeSync(fd2);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('currentBootId', () => {
  it.runIf(process.platform === 'linux')('is the kernel boot id on Linux', () => {
    const id = currentBootId();
    expect(id.length).toBeGreaterThan(0);
    expect(id).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim());
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(currentBootId()).toBe(id);
  });
});
