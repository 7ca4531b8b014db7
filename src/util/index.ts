export {
  compareBytes,
  bytesEqual,
  concatBytes,
  prefixEnd,
  keyNext,
  toHex,
  fromHex,
  utf8Encode,
  utf8Decode,
} from './bytes.js';
export { assert, assertNever } from './assert.js';
export { listen } from './listen.js';
