/**
 * `shale serve --workers N` on the embedded store: the primary process is the store's only
 * writer and commits for its workers; workers read the store directly and send each commit over
 * the cluster IPC channel (src/kv/embedded/commit-link.ts explains why and the messages).
 */
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { answerCommitCall, CommitLinkClient, EmbeddedStore, isEmbeddedUrl, openStore, type CommitRequest, type CommitOutcome } from '../kv/index.js';

/** In the primary: opens the store (embedded URLs only) and answers the workers' commits until close(). */
export async function startCommitWriter(url: string, logger: Logger): Promise<{ close(): Promise<void> } | undefined> {
  if (!isEmbeddedUrl(url)) return undefined;
  const store = await openStore(url, {
    onBackgroundError: (what, err) =>
      logger.warn({ event: 'kv_background_error', what, err: err instanceof Error ? err.message : String(err) }, 'KV background work failed'),
  });
  if (!(store instanceof EmbeddedStore)) {
    await store.close();
    return undefined;
  }
  const onMessage = (worker: { send(msg: unknown, handle: undefined, options: object, cb: (err: Error | null) => void): boolean }, msg: unknown): void => {
    void answerCommitCall(msg, (req) => store.commitHere(req)).then((reply) => {
      // A worker that died meanwhile cannot take the reply; its client saw the channel close.
      if (reply !== undefined) worker.send(reply, undefined, {}, () => undefined);
    });
  };
  cluster.on('message', onMessage);
  return {
    close: async () => {
      cluster.off('message', onMessage);
      await store.close();
    },
  };
}

/** In a worker: the commit function that sends to the primary (embedded URLs only). */
export function commitViaPrimary(url: string): ((req: CommitRequest) => Promise<CommitOutcome>) | undefined {
  if (!isEmbeddedUrl(url) || process.send === undefined) return undefined;
  const client = new CommitLinkClient((msg, onError) => {
    const sent = process.send?.(msg, undefined, {}, (err: Error | null) => {
      if (err !== null) onError(err);
    });
    if (sent === undefined) onError(new Error('no IPC channel to the primary process'));
  });
  process.on('message', (msg: unknown) => void client.handle(msg));
  process.on('disconnect', () => client.fail(new Error('lost the primary process, which writes the store: the outcome of this commit is unknown')));
  return (req) => client.commit(req);
}
