import { collationOf, type Collation } from './collation.js';

/**
 * SQL column types as the catalog stores them and every layer reads them.
 * One plain, immutable object per type; `kind` is the MySQL type name in lower case.
 */
export type TypeKind =
  | 'tinyint'
  | 'smallint'
  | 'mediumint'
  | 'int'
  | 'bigint'
  | 'float'
  | 'double'
  | 'decimal'
  | 'char'
  | 'varchar'
  | 'text'
  | 'binary'
  | 'varbinary'
  | 'blob'
  | 'date'
  | 'datetime'
  | 'timestamp'
  | 'time'
  | 'year'
  | 'json'
  | 'enum'
  | 'set'
  | 'bit'
  | 'null';

/** Size variant of TEXT / BLOB: TINYTEXT (255), TEXT (65535), MEDIUMTEXT (16M), LONGTEXT (4G). */
export type LobSize = 'tiny' | 'normal' | 'medium' | 'long';

export interface ColumnType {
  readonly kind: TypeKind;
  /** Integers and decimals only. */
  readonly unsigned: boolean;
  /**
   * Integers: display width (-1 when not given; tinyint(1) keeps 1, the BOOLEAN marker).
   * DECIMAL: precision M. CHAR/VARCHAR/BINARY/VARBINARY: max length in characters / bytes.
   * BIT: width in bits (1-64); its values are big-endian bytes, ceil(width / 8) of them.
   * Others: -1.
   */
  readonly length: number;
  /** DECIMAL: scale D. DATETIME/TIMESTAMP/TIME: fractional seconds precision (0-6). Others 0. */
  readonly scale: number;
  /** TEXT/BLOB size variant; 'normal' for everything else. */
  readonly lob: LobSize;
  /** Collation of string types: e.g. 'utf8mb4_bin', 'utf8mb4_general_ci'; 'binary' for binary types and non-strings. */
  readonly collation: string;
  /** ENUM / SET only: the permitted values as declared (trailing spaces removed). */
  readonly members?: readonly string[];
}

export const INTEGER_KINDS: ReadonlySet<TypeKind> = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'year']);
/**
 * ENUM and SET count as strings: their runtime values are the member text (see
 * sql/expr/enum-set.ts), stored and compared under the column's collation.
 */
export const STRING_KINDS: ReadonlySet<TypeKind> = new Set(['char', 'varchar', 'text', 'enum', 'set']);
export const BINARY_KINDS: ReadonlySet<TypeKind> = new Set(['binary', 'varbinary', 'blob']);
export const TEMPORAL_KINDS: ReadonlySet<TypeKind> = new Set(['date', 'datetime', 'timestamp', 'time']);

/**
 * MySQL 8.0's default collation of new databases, tables, string columns and literals
 * (case- and accent-insensitive, NO PAD). Tables stored before collations landed name
 * 'utf8mb4_bin' explicitly and keep comparing by bytes.
 */
export const DEFAULT_COLLATION = 'utf8mb4_0900_ai_ci';

export function isIntegerType(t: ColumnType): boolean {
  return INTEGER_KINDS.has(t.kind);
}
export function isStringType(t: ColumnType): boolean {
  return STRING_KINDS.has(t.kind);
}
export function isBinaryType(t: ColumnType): boolean {
  return BINARY_KINDS.has(t.kind);
}
export function isTemporalType(t: ColumnType): boolean {
  return TEMPORAL_KINDS.has(t.kind);
}

/** The collation strings of this type compare under (binary for non-string types). */
export function typeCollation(t: ColumnType): Collation {
  return collationOf(STRING_KINDS.has(t.kind) ? t.collation : 'binary');
}

/**
 * True when a memcomparable key of this type decodes back to the value itself: false for strings
 * under a non-binary collation, whose keys hold the collation weight (see codec/key-values.ts).
 */
export function keyPreservesValue(t: ColumnType): boolean {
  return !STRING_KINDS.has(t.kind) || collationOf(t.collation).binary;
}

/** Builds a ColumnType, filling the fields a kind does not use with their neutral values. */
export function makeType(kind: TypeKind, opts: Partial<Omit<ColumnType, 'kind'>> = {}): ColumnType {
  const stringish = STRING_KINDS.has(kind);
  return {
    kind,
    unsigned: opts.unsigned ?? false,
    length: opts.length ?? -1,
    scale: opts.scale ?? 0,
    lob: opts.lob ?? 'normal',
    collation: opts.collation ?? (stringish ? DEFAULT_COLLATION : 'binary'),
    ...(opts.members === undefined ? {} : { members: opts.members }),
  };
}

/** Inclusive value bounds of an integer type. */
export function integerBounds(t: ColumnType): IntegerBounds {
  const bounds = INTEGER_BOUNDS.get(t.kind);
  if (bounds === undefined) throw new Error(`not an integer type: ${t.kind}`);
  return t.unsigned ? bounds.unsigned : bounds.signed;
}

export interface IntegerBounds {
  readonly min: bigint;
  readonly max: bigint;
}

/** Each integer kind's ranges, computed once (point lookups convert their key through them). */
const INTEGER_BOUNDS: ReadonlyMap<TypeKind, { readonly signed: IntegerBounds; readonly unsigned: IntegerBounds }> = new Map(
  (
    [
      ['tinyint', 8],
      ['smallint', 16],
      ['mediumint', 24],
      ['int', 32],
      ['bigint', 64],
      ['year', 16],
    ] as const
  ).map(([kind, bits]) => [
    kind,
    {
      signed: Object.freeze({ min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n }),
      unsigned: Object.freeze({ min: 0n, max: (1n << BigInt(bits)) - 1n }),
    },
  ]),
);

/** Maximum byte length of a TEXT/BLOB variant. */
export function lobMaxBytes(lob: LobSize): number {
  return { tiny: 255, normal: 65535, medium: 16777215, long: 4294967295 }[lob];
}

/**
 * The type as MySQL prints it in SHOW CREATE TABLE / information_schema COLUMN_TYPE (8.0.19+:
 * no display width on integers except tinyint(1)), e.g. `int`, `int unsigned`, `tinyint(1)`,
 * `decimal(10,2)`, `varchar(255)`, `datetime(6)`, `longtext`.
 */
export function formatColumnType(t: ColumnType): string {
  const uns = t.unsigned ? ' unsigned' : '';
  switch (t.kind) {
    case 'tinyint':
      return (t.length === 1 ? 'tinyint(1)' : 'tinyint') + uns;
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint':
      return t.kind + uns;
    case 'year':
      return 'year';
    case 'float':
    case 'double':
      return t.kind + uns;
    case 'decimal':
      return `decimal(${t.length},${t.scale})${uns}`;
    case 'char':
    case 'varchar':
    case 'binary':
    case 'varbinary':
      return `${t.kind}(${t.length})`;
    case 'text':
    case 'blob': {
      const prefix = t.lob === 'normal' ? '' : t.lob;
      return prefix + t.kind;
    }
    case 'datetime':
    case 'timestamp':
    case 'time':
      return t.scale > 0 ? `${t.kind}(${t.scale})` : t.kind;
    case 'date':
    case 'json':
    case 'null':
      return t.kind;
    case 'bit':
      return `bit(${t.length})`;
    case 'enum':
    case 'set':
      return `${t.kind}(${(t.members ?? []).map(quoteMember).join(',')})`;
  }
}

/** A member in SHOW CREATE TABLE: single-quoted, `'` doubled and `\` escaped as MySQL prints it. */
function quoteMember(m: string): string {
  return `'${m.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
