export * from './kv.js';
export { isEmbeddedUrl, openStore, type OpenStoreOptions } from './open.js';
export { answerCommitCall, CommitLinkClient, EmbeddedStore, type CommitCall, type CommitOutcome, type CommitReply } from './embedded/index.js';
