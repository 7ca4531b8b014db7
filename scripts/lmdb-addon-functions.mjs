/**
 * ShaleDB's additions to lmdb-js's native add-on (applied by build-lmdb.mjs): three small N-API
 * functions the embedded store calls, and a fix to LMDB's WRITEMAP mode (the first hunk).
 *
 * - `shaledbLastTxnId(envAddress)`: the id of the newest transaction committed by any process on
 *   the environment (LMDB's shared `mti_txnid` in lock.mdb, the value a read transaction that
 *   begins or renews now starts from). lmdb-js keeps one read transaction current for at least a
 *   millisecond, so a snapshot taken right after another worker acknowledged a commit could miss
 *   it; src/kv/embedded/fresh-read-txn.ts resets that read transaction only when this id moved
 *   (a reset costs 1-3 µs, this call ~30 ns).
 * - `shaledbLastPgno(envAddress)`: the last page number in use (the newest meta page's), and
 * - `shaledbFallocate(fd, offset, length)`: posix_fallocate, returning 0 or the errno. With
 *   LMDB's WRITEMAP the data file is sparse up to the map size and written through the memory
 *   map, where a full disk is a SIGBUS instead of an error; src/kv/embedded/data-file-room.ts
 *   allocates blocks ahead of the last page in use before each write batch, so that a full disk
 *   fails the commit with ENOSPC instead.
 *
 * Each hunk replaces `before` (found exactly once in `file`) with `after`; a hunk whose `after` is
 * already there is skipped, so the patch applies once.
 */
export const ADDON_FUNCTIONS_ID = 'addon-functions-v2';

const NAPI_FUNCTIONS = [
  '/* ShaleDB addon-functions-v1 (scripts/lmdb-addon-functions.mjs). */',
  'extern "C" size_t mdb_env_shaledb_txnid(MDB_env *env);',
  'NAPI_FUNCTION(shaledbLastTxnId) {',
  '\tARGS(1)',
  '\tGET_INT64_ARG(0);',
  '\tEnvWrap* ew = (EnvWrap*) i64;',
  '\tdouble id = (ew && ew->env) ? (double) mdb_env_shaledb_txnid(ew->env) : 0;',
  '\tnapi_create_double(env, id, &returnValue);',
  '\treturn returnValue;',
  '}',
  'NAPI_FUNCTION(shaledbLastPgno) {',
  '\tARGS(1)',
  '\tGET_INT64_ARG(0);',
  '\tEnvWrap* ew = (EnvWrap*) i64;',
  '\tMDB_envinfo stat;',
  '\tdouble pgno = (ew && ew->env && mdb_env_info(ew->env, &stat) == 0) ? (double) stat.me_last_pgno : -1;',
  '\tnapi_create_double(env, pgno, &returnValue);',
  '\treturn returnValue;',
  '}',
  'NAPI_FUNCTION(shaledbFallocate) {',
  '\tARGS(3)',
  '\tint32_t fd = -1;',
  '\tint64_t offset = 0, length = 0;',
  '\tnapi_get_value_int32(env, args[0], &fd);',
  '\tnapi_get_value_int64(env, args[1], &offset);',
  '\tnapi_get_value_int64(env, args[2], &length);',
  '#ifdef _WIN32',
  '\tint rc = 0;',
  '#else',
  '\tint rc = (fd < 0 || offset < 0 || length <= 0) ? EINVAL : posix_fallocate(fd, (off_t) offset, (off_t) length);',
  '#endif',
  '\tRETURN_INT32(rc);',
  '}',
  '',
].join('\n');

export const ADDON_FUNCTIONS_HUNKS = [
  {
    // LMDB 1.0's WRITEMAP tells a transaction's dirty pages by their mp_txnid and keeps (almost) no
    // dirty list (mt_dirty_room is 1), but mdb_freelist_save still looks each loose page up in it
    // and asserts it is there: emptying a database (its last key removed) aborted the process
    // (the same assertion as kriszyp/lmdb-js#212 and owasp-modsecurity/ModSecurity#3639). A loose
    // page not in the list has no entry to clear, so it is skipped.
    what: 'WRITEMAP loose pages missing from the dirty list',
    file: 'dependencies/lmdb/libraries/liblmdb/mdb.c',
    before: '\t\t\t\tmdb_tassert(txn, x <= dl[0].mid);\n\t\t\t} else {\n',
    after:
      '\t\t\t\t/* ShaleDB addon-functions-v2: WRITEMAP keeps dirty pages out of dl; nothing to clear. */\n' +
      '\t\t\t\tif (x > dl[0].mid)\n\t\t\t\t\tcontinue;\n\t\t\t} else {\n',
  },
  {
    what: 'mdb_env_shaledb_txnid, after mdb_env_get_maxkeysize',
    file: 'dependencies/lmdb/libraries/liblmdb/mdb.c',
    before: 'int ESECT\nmdb_env_get_maxkeysize(MDB_env *env)\n{\n\treturn ENV_MAXKEY(env);\n}\n',
    after:
      'int ESECT\nmdb_env_get_maxkeysize(MDB_env *env)\n{\n\treturn ENV_MAXKEY(env);\n}\n\n' +
      '/* ShaleDB addon-functions-v1: the id a read txn beginning now would take (0 without a lock file). */\n' +
      'size_t\nmdb_env_shaledb_txnid(MDB_env *env)\n{\n\treturn env->me_txns ? env->me_txns->mti_txnid : 0;\n}\n',
  },
  {
    what: 'the N-API functions, before TxnWrap::getEnv',
    file: 'src/txn.cpp',
    before: 'MDB_env* TxnWrap::getEnv() {\n',
    after: `#include <fcntl.h>\n${NAPI_FUNCTIONS}MDB_env* TxnWrap::getEnv() {\n`,
  },
  {
    what: 'their exports, beside resetTxn',
    file: 'src/txn.cpp',
    before: '\tEXPORT_NAPI_FUNCTION("resetTxn", resetTxn);\n',
    after:
      '\tEXPORT_NAPI_FUNCTION("resetTxn", resetTxn);\n' +
      '\tEXPORT_NAPI_FUNCTION("shaledbLastTxnId", shaledbLastTxnId);\n' +
      '\tEXPORT_NAPI_FUNCTION("shaledbLastPgno", shaledbLastPgno);\n' +
      '\tEXPORT_NAPI_FUNCTION("shaledbFallocate", shaledbFallocate);\n',
  },
];
