import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { answerCommitCall, CommitLinkClient, EmbeddedStore, type CommitCall, type CommitRequest } from '../../src/kv/index.js';
import { SqlError } from '../../src/errors/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);

/** A writer store and a worker store on one directory, linked by an in-memory "IPC" channel using v8 serialization (as cluster's 'advanced' mode does). */
async function linked<T>(fn: (worker: EmbeddedStore, writer: EmbeddedStore, calls: unknown[]) => Promise<T>): Promise<T> {
  const dir = tempDir('shale-link-');
  const writer = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
  const calls: unknown[] = [];
  const client = new CommitLinkClient((msg: CommitCall) => {
    const wire = deserialize(serialize(msg)) as unknown;
    calls.push(wire);
    void answerCommitCall(wire, (req) => writer.commitHere(req)).then((reply) => client.handle(deserialize(serialize(reply))));
  });
  const worker = EmbeddedStore.open(dir, { gcIntervalMs: 0, commitVia: (req) => client.commit(req) });
  try {
    return await fn(worker, writer, calls);
  } finally {
    await worker.close();
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('commits over the worker -> primary link', () => {
  it('a worker commit is applied by the writer and visible to the worker', async () => {
    await linked(async (worker, _writer, calls) => {
      const snap = await worker.snapshot();
      const ts = await worker.commit({ startTs: snap.startTs, mutations: [{ op: 'put', key: b('k'), value: b('v') }], checkKeys: [] });
      snap.release();
      expect(ts).toBe(1n);
      expect(calls).toHaveLength(1);
      const after = await worker.snapshot();
      const v = await after.get(b('k'));
      after.release();
      expect(v === undefined ? undefined : utf8Decode(v)).toBe('v');
    });
  });

  it('the next snapshot after an acknowledged worker commit sees it (read-your-writes)', async () => {
    await linked(async (worker) => {
      const missing: number[] = [];
      for (let i = 0; i < 200; i++) {
        const before = await worker.snapshot(); // keeps this process's read transaction in use
        await worker.commit({ startTs: before.startTs, mutations: [{ op: 'put', key: b(`r${i}`), value: b('x') }], checkKeys: [] });
        before.release();
        const after = await worker.snapshot();
        if ((await after.get(b(`r${i}`))) === undefined) missing.push(i);
        after.release();
      }
      expect(missing).toEqual([]);
    });
  });

  it('conflicts found by the writer reach the worker as 1213 with the same message', async () => {
    await linked(async (worker, writer) => {
      const snap = await worker.snapshot();
      await writer.commit({ startTs: snap.startTs, mutations: [{ op: 'put', key: b('k'), value: b('w') }], checkKeys: [] });
      await expect(worker.commit({ startTs: snap.startTs, mutations: [{ op: 'del', key: b('k') }], checkKeys: [] })).rejects.toMatchObject({
        errno: 1213,
        message: expect.stringMatching(/write conflict on key 6b/) as unknown,
      });
      snap.release();
    });
  });

  it('answers malformed calls with an error and ignores other messages', async () => {
    const commit = (_req: CommitRequest): Promise<never> => Promise.reject(new Error('must not be called'));
    expect(await answerCommitCall({ type: 'shale:health-req', id: 1 }, commit)).toBeUndefined();
    expect(await answerCommitCall({ type: 'shale:kv-commit', id: 4, startTs: 1, mutations: [], checkKeys: [] }, commit)).toMatchObject({ id: 4, error: { message: 'malformed commit call' } });
    expect(await answerCommitCall({ type: 'shale:kv-commit', id: 5, startTs: 1n, mutations: [{ op: 'put', key: 'k' }], checkKeys: [] }, commit)).toMatchObject({ id: 5, error: {} });
  });

  it('a MySQL error raised by the writer keeps its errno; a lost channel fails waiting and later commits', async () => {
    let pending: CommitCall | undefined;
    const client = new CommitLinkClient((msg) => (pending = msg));
    const first = client.commit({ startTs: 0n, mutations: [], checkKeys: [] });
    const reply = await answerCommitCall(pending, () => Promise.reject(SqlError.of('ER_DISK_FULL', 'data.mdb', 'no space')));
    expect(client.handle(reply)).toBe(true);
    await expect(first).rejects.toMatchObject({ errno: 1021 });
    const second = client.commit({ startTs: 0n, mutations: [], checkKeys: [] });
    client.fail(new Error('primary gone'));
    await expect(second).rejects.toThrow('primary gone');
    await expect(client.commit({ startTs: 0n, mutations: [], checkKeys: [] })).rejects.toThrow('primary gone');
    expect(client.handle({ type: 'something-else' })).toBe(false);
  });

  it('a send that fails rejects the commit', async () => {
    const client = new CommitLinkClient((_msg, onError) => onError(new Error('channel closed')));
    await expect(client.commit({ startTs: 0n, mutations: [], checkKeys: [] })).rejects.toThrow('channel closed');
  });
});
