/**
 * Type flags of the memcomparable key encoding (TiDB `util/codec`). The flag byte precedes each
 * encoded value, so NULL (0) sorts before every non-NULL value.
 *
 * frozen: part of the on-disk format.
 */
export const FLAG_NULL = 0x00;
export const FLAG_BYTES = 0x01;
export const FLAG_INT = 0x03;
export const FLAG_UINT = 0x04;
export const FLAG_FLOAT = 0x05;
export const FLAG_DECIMAL = 0x06;
export const FLAG_DURATION = 0x07;
/** Larger than every flag: usable as an exclusive upper bound after a key prefix. */
export const FLAG_MAX = 0xfa;
