export {
  type TypeKind,
  type LobSize,
  type ColumnType,
  INTEGER_KINDS,
  STRING_KINDS,
  BINARY_KINDS,
  TEMPORAL_KINDS,
  DEFAULT_COLLATION,
  isIntegerType,
  isStringType,
  isBinaryType,
  isTemporalType,
  typeCollation,
  keyPreservesValue,
  makeType,
  integerBounds,
  lobMaxBytes,
  formatColumnType,
} from './column-type.js';
export {
  type Collation,
  type PadAttribute,
  COLLATIONS,
  DEFAULT_COLLATION_NAME,
  BINARY_COLLATION,
  DEFAULT_COLLATION_INFO,
  compareCodePoints,
  findCollation,
  collationById,
  collationOf,
  charsetDefaultCollation,
} from './collation.js';
export { effectiveLength, isAsciiString } from './collation-ascii.js';
export { type Value, Decimal, DateTime, Duration, isDecimal, isBytes } from './value.js';
export type { ResultColumn, OkResult, RowsResult, ExecResult, RowSink } from './result.js';
