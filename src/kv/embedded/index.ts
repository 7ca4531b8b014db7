export { EmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
export { openError } from './storage-errors.js';
export { answerCommitCall, CommitLinkClient, type CommitCall, type CommitReply } from './commit-link.js';
export type { CommitOutcome } from './commit-apply.js';
