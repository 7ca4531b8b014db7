/**
 * ShaleDB's additions to lmdb-js's native add-on (applied by build-lmdb.mjs): four N-API
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
 * - `shaledbScan(...)`: a run of a key range's entries copied into a buffer in one call
 *   (src/kv/embedded/native-scan.ts; contract below).
 * - `shaledbApplyOps(...)`: a commit's writes, read from its redo record's encoded ops, made in
 *   the environment's current write transaction in one call (src/kv/embedded/native-apply.ts;
 *   contract below).
 *
 * Each hunk replaces `before` (found exactly once in `file`) with `after`; a hunk whose `after` is
 * already there is skipped, so the patch applies once.
 */
export const ADDON_FUNCTIONS_ID = 'addon-functions-v4';

/**
 * `shaledbScan(dbiAddress, txnAddress, keys, startLength, endLength, flags, limit, out)`: copies
 * up to `limit` entries of one key range, read in read transaction `txnAddress` (a TxnWrap's
 * address) from database `dbiAddress` (a DbiWrap's), into `out`, one native call for what
 * lmdb-js's iterator does with one call and a dozen JavaScript steps per entry. The range is
 * `keys[0, startLength)` (inclusive; flag 2 makes it exclusive; length 0: from the first key) up
 * to `keys[startLength, startLength + endLength)` (exclusive; length 0: to the last key); flag 1
 * walks it from the end down. Each entry is written as [key length u32 LE][value length u32 LE]
 * [key][value]. Returns `2 * count + 1` when the next entry did not fit in `out`, else
 * `2 * count` (the range or `limit` ended); -1 with the bytes needed at out[0, 4) when the first
 * entry does not fit; -2 for a database this cannot read (versions or compression) or bad
 * arguments; otherwise LMDB's error code (negative, or -errno).
 */
const SCAN_FUNCTION = [
  'static void shaledbPut32(unsigned char* at, size_t v) {',
  '\tat[0] = v & 0xff; at[1] = (v >> 8) & 0xff; at[2] = (v >> 16) & 0xff; at[3] = (v >> 24) & 0xff;',
  '}',
  'static bool shaledbBytes(napi_env env, napi_value v, unsigned char** data, size_t* length) {',
  '\tnapi_typedarray_type type;',
  '\tnapi_value buffer;',
  '\tsize_t offset;',
  '\tvoid* at = nullptr;',
  '\tif (napi_get_typedarray_info(env, v, &type, length, &at, &buffer, &offset) != napi_ok || type != napi_uint8_array) return false;',
  '\t*data = (unsigned char*) at;',
  '\treturn true;',
  '}',
  'NAPI_FUNCTION(shaledbScan) {',
  '\tARGS(8)',
  '\tint64_t dbiAddress = 0, txnAddress = 0;',
  '\tuint32_t startLength = 0, endLength = 0, flags = 0, limit = 0;',
  '\tunsigned char *keys = nullptr, *out = nullptr;',
  '\tsize_t keysLength = 0, outLength = 0;',
  '\tnapi_get_value_int64(env, args[0], &dbiAddress);',
  '\tnapi_get_value_int64(env, args[1], &txnAddress);',
  '\tGET_UINT32_ARG(startLength, 3);',
  '\tGET_UINT32_ARG(endLength, 4);',
  '\tGET_UINT32_ARG(flags, 5);',
  '\tGET_UINT32_ARG(limit, 6);',
  '\tDbiWrap* dw = (DbiWrap*) dbiAddress;',
  '\tTxnWrap* tw = (TxnWrap*) txnAddress;',
  '\tif (!dw || !tw || !tw->txn || dw->hasVersions || dw->compression || !shaledbBytes(env, args[2], &keys, &keysLength)',
  '\t\t\t|| !shaledbBytes(env, args[7], &out, &outLength) || (size_t) startLength + endLength > keysLength || outLength < 8)',
  '\t\tRETURN_INT32(-2);',
  '\tMDB_txn* txn = tw->txn;',
  '\tMDB_cursor* cursor;',
  '\tint rc = mdb_cursor_open(txn, dw->dbi, &cursor);',
  '\tif (rc) RETURN_INT32(rc > 0 ? -rc : rc);',
  '\tbool reverse = flags & 1;',
  '\tMDB_val start = { startLength, keys }, end = { endLength, keys + startLength }, key, data;',
  '\tif (reverse) {',
  '\t\tif (endLength > 0) {',
  '\t\t\tkey = end;',
  '\t\t\trc = mdb_cursor_get(cursor, &key, &data, MDB_SET_RANGE);',
  '\t\t\trc = rc == MDB_NOTFOUND ? mdb_cursor_get(cursor, &key, &data, MDB_LAST) : rc ? rc : mdb_cursor_get(cursor, &key, &data, MDB_PREV);',
  '\t\t} else rc = mdb_cursor_get(cursor, &key, &data, MDB_LAST);',
  '\t} else if (startLength > 0) {',
  '\t\tkey = start;',
  '\t\trc = mdb_cursor_get(cursor, &key, &data, MDB_SET_RANGE);',
  '\t\tif (!rc && (flags & 2) && mdb_cmp(txn, dw->dbi, &key, &start) == 0) rc = mdb_cursor_get(cursor, &key, &data, MDB_NEXT);',
  '\t} else rc = mdb_cursor_get(cursor, &key, &data, MDB_FIRST);',
  '\tuint32_t count = 0;',
  '\tsize_t at = 0;',
  '\tint full = 0;',
  '\twhile (!rc && count < limit) {',
  '\t\tif (reverse ? startLength > 0 && mdb_cmp(txn, dw->dbi, &key, &start) < 0 : endLength > 0 && mdb_cmp(txn, dw->dbi, &key, &end) >= 0) break;',
  '\t\tsize_t need = 8 + key.mv_size + data.mv_size;',
  '\t\tif (need > outLength - at) {',
  '\t\t\tif (count == 0) {',
  '\t\t\t\tshaledbPut32(out, need);',
  '\t\t\t\trc = -1;',
  '\t\t\t}',
  '\t\t\tfull = 1;',
  '\t\t\tbreak;',
  '\t\t}',
  '\t\tshaledbPut32(out + at, key.mv_size);',
  '\t\tshaledbPut32(out + at + 4, data.mv_size);',
  '\t\tmemcpy(out + at + 8, key.mv_data, key.mv_size);',
  '\t\tmemcpy(out + at + 8 + key.mv_size, data.mv_data, data.mv_size);',
  '\t\tat += need;',
  '\t\tcount++;',
  '\t\trc = mdb_cursor_get(cursor, &key, &data, reverse ? MDB_PREV : MDB_NEXT);',
  '\t}',
  '\tmdb_cursor_close(cursor);',
  '\tif (rc == -1) RETURN_INT32(-1);',
  '\tif (rc && rc != MDB_NOTFOUND) RETURN_INT32(rc > 0 ? -rc : rc);',
  '\tRETURN_INT32((int32_t) (count * 2 + full));',
  '}',
];

/**
 * `shaledbApplyOps(envAddress, dataDbi, metaDbi, tombsDbi, bytes, start, end)`: makes the writes
 * encoded in `bytes[start, end)` in the environment's current write transaction (the one whose
 * callback or `transactionSync` is running: lmdb-js's `writeTxn`), where lmdb-js would encode an
 * instruction and make a native call per write. The ops are the redo record's
 * (src/kv/embedded/redo-record.ts): `[db u8][op u8][key length u16 LE][key]`, and for a put
 * `[value length u32 LE][value]`; db 0, 1, 2 = the three DbiWrap addresses given, op 0 = put
 * (flags 0), 1 = delete (a missing key is no error). Every op is validated before the first write,
 * so malformed bytes write nothing (a key longer than 2,048 bytes is malformed; LMDB's own limit is
 * lower). Each key is handed to LMDB from a copy followed by zero bytes, as lmdb-js hands its keys:
 * the comparator lmdb-js sets on string-keyed databases (`compareFast`) reads up to 3 bytes past
 * the key being looked up, and without the zeros an existing key compares unequal and is stored
 * a second time. Returns 0; -100000 for bad arguments, no write transaction or
 * a database this cannot write (versions or compression); -100001 for malformed ops; otherwise
 * LMDB's error code (negative) or -errno of the write that failed, which leaves LMDB's transaction
 * unusable, as a failed lmdb-js put does.
 */
const APPLY_FUNCTION = [
  '/* ShaleDB addon-functions-v4 (scripts/lmdb-addon-functions.mjs). */',
  '#define SHALEDB_MAX_KEY 2048',
  'static size_t shaledbGet32(const unsigned char* at) {',
  '\treturn (size_t) at[0] | ((size_t) at[1] << 8) | ((size_t) at[2] << 16) | ((size_t) at[3] << 24);',
  '}',
  '/* One op at `at` (before `end`): false if malformed; else its db, op, key and value, and where the next starts. */',
  'static bool shaledbOp(unsigned char* bytes, size_t at, size_t end, unsigned* db, unsigned* op, MDB_val* key, MDB_val* value, size_t* next) {',
  '\tif (end - at < 4) return false;',
  '\t*db = bytes[at];',
  '\t*op = bytes[at + 1];',
  '\tsize_t keyLength = (size_t) bytes[at + 2] | ((size_t) bytes[at + 3] << 8);',
  '\tat += 4;',
  '\tif (*db > 2 || *op > 1 || keyLength == 0 || keyLength > SHALEDB_MAX_KEY || end - at < keyLength) return false;',
  '\tkey->mv_size = keyLength;',
  '\tkey->mv_data = bytes + at;',
  '\tat += keyLength;',
  '\tif (*op == 0) {',
  '\t\tif (end - at < 4) return false;',
  '\t\tsize_t valueLength = shaledbGet32(bytes + at);',
  '\t\tat += 4;',
  '\t\tif (end - at < valueLength) return false;',
  '\t\tvalue->mv_size = valueLength;',
  '\t\tvalue->mv_data = bytes + at;',
  '\t\tat += valueLength;',
  '\t}',
  '\t*next = at;',
  '\treturn true;',
  '}',
  'NAPI_FUNCTION(shaledbApplyOps) {',
  '\tARGS(7)',
  '\tint64_t envAddress = 0, dbiAddress[3] = { 0, 0, 0 };',
  '\tuint32_t start = 0, end = 0;',
  '\tunsigned char* bytes = nullptr;',
  '\tsize_t length = 0;',
  '\tnapi_get_value_int64(env, args[0], &envAddress);',
  '\tfor (int i = 0; i < 3; i++) napi_get_value_int64(env, args[1 + i], &dbiAddress[i]);',
  '\tGET_UINT32_ARG(start, 5);',
  '\tGET_UINT32_ARG(end, 6);',
  '\tEnvWrap* ew = (EnvWrap*) envAddress;',
  '\tif (!ew || !ew->env || !ew->writeTxn || !ew->writeTxn->txn || !shaledbBytes(env, args[4], &bytes, &length) || start > end || end > length)',
  '\t\tRETURN_INT32(-100000);',
  '\tMDB_dbi dbis[3];',
  '\tfor (int i = 0; i < 3; i++) {',
  '\t\tDbiWrap* dw = (DbiWrap*) dbiAddress[i];',
  '\t\tif (!dw || dw->hasVersions || dw->compression) RETURN_INT32(-100000);',
  '\t\tdbis[i] = dw->dbi;',
  '\t}',
  '\tunsigned db, op;',
  '\tMDB_val key, value;',
  '\tfor (size_t at = start; at < end; )',
  '\t\tif (!shaledbOp(bytes, at, end, &db, &op, &key, &value, &at)) RETURN_INT32(-100001);',
  '\tMDB_txn* txn = ew->writeTxn->txn;',
  '\tew->hasWrites = true;',
  '\t/* lmdb-js compares string keys with compareFast, which reads up to 3 bytes past the key it looks',
  '\t * up; lmdb-js writes keys followed by zeros, so each key goes to LMDB from a zero-padded copy. */',
  '\tunsigned char padded[SHALEDB_MAX_KEY + 8];',
  '\tfor (size_t at = start; at < end; ) {',
  '\t\tshaledbOp(bytes, at, end, &db, &op, &key, &value, &at);',
  '\t\tmemcpy(padded, key.mv_data, key.mv_size);',
  '\t\tmemset(padded + key.mv_size, 0, 8);',
  '\t\tkey.mv_data = padded;',
  '\t\tint rc = op == 0 ? mdb_put(txn, dbis[db], &key, &value, 0) : mdb_del(txn, dbis[db], &key, nullptr);',
  '\t\tif (rc == MDB_NOTFOUND && op == 1) rc = 0;',
  '\t\tif (rc) RETURN_INT32(rc > 0 ? -rc : rc);',
  '\t}',
  '\tRETURN_INT32(0);',
  '}',
  '',
].join('\n');

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
  ...SCAN_FUNCTION,
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
      '\tEXPORT_NAPI_FUNCTION("shaledbFallocate", shaledbFallocate);\n' +
      '\tEXPORT_NAPI_FUNCTION("shaledbScan", shaledbScan);\n',
  },
  // v4's function goes in hunks of its own, after v3's text, so that a tree patched with v3
  // takes them too (v3's hunks then find their text already there).
  {
    what: 'shaledbApplyOps, after TxnWrap::getEnv',
    file: 'src/txn.cpp',
    before: 'void TxnWrap::setupExports(Napi::Env env, Object exports) {\n',
    after: `${APPLY_FUNCTION}void TxnWrap::setupExports(Napi::Env env, Object exports) {\n`,
  },
  {
    what: 'its export, after shaledbScan',
    file: 'src/txn.cpp',
    before: '\tEXPORT_NAPI_FUNCTION("shaledbScan", shaledbScan);\n',
    after: '\tEXPORT_NAPI_FUNCTION("shaledbScan", shaledbScan);\n\tEXPORT_NAPI_FUNCTION("shaledbApplyOps", shaledbApplyOps);\n',
  },
];
