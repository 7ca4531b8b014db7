export * from './kv.js';
export {
  answerCommitCall,
  CommitLinkClient,
  EmbeddedStore,
  isEmbeddedUrl,
  openStore,
  type CommitCall,
  type CommitOutcome,
  type CommitReply,
  type OpenStoreOptions,
} from './open.js';
