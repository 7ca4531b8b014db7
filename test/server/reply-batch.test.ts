import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { queueReply, type QueuedReply } from '../../src/server/reply-batch.js';

/** A reply that records when the batch sent it. */
function reply(log: string[], name: string): QueuedReply {
  return { sendQueued: () => log.push(name) };
}

describe('reply batch', () => {
  it('sends the replies queued in one turn together, after the turn, in order', async () => {
    const log: string[] = [];
    expect(queueReply(reply(log, 'a'))).toBe(true);
    expect(queueReply(reply(log, 'b'))).toBe(true);
    expect(log).toEqual([]);
    await turn();
    expect(log).toEqual(['a', 'b']);
  });

  it('writes at once after 16 single-reply batches, samples a batch every 32nd reply, and batches again under load', async () => {
    const log: string[] = [];
    for (let i = 0; i < 16; i++) {
      expect(queueReply(reply(log, `single${i}`))).toBe(true);
      await turn();
    }
    expect(log).toHaveLength(16);
    // One client: the caller is told to write at once (nothing is queued)...
    for (let i = 1; i < 32; i++) expect(queueReply(reply(log, 'direct'))).toBe(false);
    expect(log).toHaveLength(16);
    // ...until the 32nd, which opens a batch; a reply finished in the same turn joins it.
    expect(queueReply(reply(log, 'sample'))).toBe(true);
    expect(queueReply(reply(log, 'joined'))).toBe(true);
    await turn();
    expect(log.slice(-2)).toEqual(['sample', 'joined']);
    // Two replies in that batch: back to batching.
    expect(queueReply(reply(log, 'batched'))).toBe(true);
    await turn();
    expect(log.at(-1)).toBe('batched');
  });
});
