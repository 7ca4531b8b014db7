export {
  compareBytes,
  copyRange,
  bytesEqual,
  concatBytes,
  prefixEnd,
  keyNext,
  toHex,
  fromHex,
  utf8Encode,
  utf8Decode,
} from './bytes.js';
export {
  decodeSurrogateEscape,
  encodeSurrogateEscape,
  encodeSurrogateEscapeInto,
  firstEscapedByte,
  hasEscapedBytes,
  isWellFormedText,
} from './surrogate-escape.js';
export { assert, assertNever } from './assert.js';
export { listen } from './listen.js';
export { allocBytes, copyBytes, MAX_POOLED } from './byte-slab.js';
export { pidAlive } from './process.js';
export { LazyText } from './lazy-text.js';
export { radixOrder } from './radix-order.js';
