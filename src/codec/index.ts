/**
 * ShaleDB codec: memcomparable keys, table/index/meta keys, index values and row format v2.
 * Every byte format here is frozen: part of the on-disk format. See each file's header.
 */
export type { Handle } from './handle.js';
export { intHandle, commonHandle } from './handle.js';
export { encodeKeyValues, decodeKeyValues } from './key-values.js';
export { tablePrefix, recordPrefix, recordKey, decodeRecordKey, decodeIntHandle, decodeIntHandleAt, indexPrefix, indexKey, decodeIndexKey, decodeTableId } from './keys.js';
export { encodeIndexValue, decodeIndexValue } from './index-value.js';
export { intHandleEntryPart, INT_HANDLE_VALUE_LEN } from './entry-part.js';
export { metaKey, decodeMetaKey } from './meta-key.js';
export { encodeRow } from './row-encoder.js';
export { compileRowEncoder, type RowEncoder } from './row-encoder-compiled.js';
export { decodeRow, decodeRowInto } from './row-decoder.js';
export { FLAG_NULL, FLAG_BYTES, FLAG_INT, FLAG_UINT, FLAG_FLOAT, FLAG_DECIMAL, FLAG_DURATION, FLAG_MAX } from './flags.js';
