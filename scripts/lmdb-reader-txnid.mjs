/**
 * ShaleDB's third change to lmdb-js (applied by build-lmdb.mjs): `shaledbLastTxnId(envAddress)`,
 * the id of the newest transaction committed by any process on the environment (LMDB's shared
 * `mti_txnid` in lock.mdb, the value a read transaction that begins or renews now starts from).
 *
 * Why: lmdb-js keeps one read transaction current for at least a millisecond, so a snapshot taken
 * right after another worker acknowledged a commit could miss it; the embedded store resets that
 * read transaction before every snapshot (src/kv/embedded/embedded-store.ts). A reset costs
 * 1-3 µs (a timer, and a new LMDB transaction when statements still hold the old one), most of it
 * wasted when nothing was committed since. With this counter the store resets only when it moved:
 * a value read before a reset is at most the id the reset's snapshot starts from, so "unchanged
 * since the last reset" means that snapshot already holds every commit acknowledged so far.
 *
 * Each hunk replaces `before` (found exactly once in `file`) with `after`; a hunk whose `after` is
 * already there is skipped, so the patch applies once.
 */
export const READER_TXNID_ID = 'reader-txnid-v1';

export const READER_TXNID_HUNKS = [
  {
    what: 'mdb_env_shaledb_txnid, after mdb_env_get_maxkeysize',
    file: 'dependencies/lmdb/libraries/liblmdb/mdb.c',
    before: 'int ESECT\nmdb_env_get_maxkeysize(MDB_env *env)\n{\n\treturn ENV_MAXKEY(env);\n}\n',
    after:
      'int ESECT\nmdb_env_get_maxkeysize(MDB_env *env)\n{\n\treturn ENV_MAXKEY(env);\n}\n\n' +
      '/* ShaleDB reader-txnid-v1: the id a read txn beginning now would take (0 without a lock file). */\n' +
      'size_t\nmdb_env_shaledb_txnid(MDB_env *env)\n{\n\treturn env->me_txns ? env->me_txns->mti_txnid : 0;\n}\n',
  },
  {
    what: 'the shaledbLastTxnId N-API function, before TxnWrap::getEnv',
    file: 'src/txn.cpp',
    before: 'MDB_env* TxnWrap::getEnv() {\n',
    after:
      '/* ShaleDB reader-txnid-v1 (scripts/lmdb-reader-txnid.mjs). */\n' +
      'extern "C" size_t mdb_env_shaledb_txnid(MDB_env *env);\n' +
      'NAPI_FUNCTION(shaledbLastTxnId) {\n\tARGS(1)\n\tGET_INT64_ARG(0);\n\tEnvWrap* ew = (EnvWrap*) i64;\n' +
      '\tdouble id = (ew && ew->env) ? (double) mdb_env_shaledb_txnid(ew->env) : 0;\n' +
      '\tnapi_create_double(env, id, &returnValue);\n\treturn returnValue;\n}\n' +
      'MDB_env* TxnWrap::getEnv() {\n',
  },
  {
    what: 'the shaledbLastTxnId export, beside resetTxn',
    file: 'src/txn.cpp',
    before: '\tEXPORT_NAPI_FUNCTION("resetTxn", resetTxn);\n',
    after: '\tEXPORT_NAPI_FUNCTION("resetTxn", resetTxn);\n\tEXPORT_NAPI_FUNCTION("shaledbLastTxnId", shaledbLastTxnId);\n',
  },
];
