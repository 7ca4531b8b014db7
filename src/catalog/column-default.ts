/**
 * ColumnDefault (stored as text) -> the column's JS value (see types/value.ts conventions).
 * Literal texts are what SHOW CREATE TABLE prints: '0', '-1.5', 'abc', '2024-01-31 10:00:00'.
 * Byte-string defaults (binary: true, as the session writes them) hold the bytes decoded as
 * UTF-8; they are re-encoded as UTF-8 here (lossless for UTF-8 byte strings only).
 */
import { type ColumnType, DateTime, Decimal, type Value, integerBounds } from '../types/index.js';
import { utf8Encode } from '../util/index.js';
import type { ColumnDefault, ColumnInfo } from './types.js';
import { parseDateTimeText, parseTimeText } from './temporal-text.js';

/** The column's default for a new row ('none' -> null: callers check NOT NULL themselves). */
export function columnDefaultValue(col: ColumnInfo, now: DateTime): Value {
  // MySQL: an ENUM NOT NULL column without DEFAULT defaults to its first member.
  if (col.default.kind === 'none' && col.notNull && col.type.kind === 'enum') return col.type.members?.[0] ?? '';
  return defaultToValue(col.default, col.type, now);
}

/** The value of this column in rows written before the column existed. */
export function columnOriginValue(col: ColumnInfo, now: DateTime): Value {
  const def = col.originDefault ?? col.default;
  if (def.kind === 'none' && col.notNull && col.type.kind === 'enum') return col.type.members?.[0] ?? '';
  return defaultToValue(def, col.type, now);
}

export function defaultToValue(def: ColumnDefault, type: ColumnType, now: DateTime): Value {
  switch (def.kind) {
    case 'none':
    case 'null':
      return null;
    case 'now':
      return nowFor(type, now, def.fsp);
    case 'literal': {
      const v = literalValue(def.text, type);
      if (v === undefined) throw new Error(`invalid default '${def.text}' for ${type.kind}`);
      return v;
    }
  }
}

function nowFor(type: ColumnType, now: DateTime, fsp: number): Value {
  if (type.kind === 'date') return now.withKind('date', 0);
  return now.withKind('datetime', type.kind === 'datetime' || type.kind === 'timestamp' ? type.scale : fsp);
}

/** The literal converted to the column type, or undefined if it does not fit (1067). */
export function literalValue(text: string, type: ColumnType): Value | undefined {
  switch (type.kind) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint':
    case 'year':
      return integerLiteral(text, type);
    case 'float':
    case 'double': {
      const n = Number(text.trim());
      return text.trim() === '' || Number.isNaN(n) ? undefined : n;
    }
    case 'decimal':
      return decimalLiteral(text, type);
    case 'char':
    case 'varchar':
    case 'text':
    case 'json':
    case 'enum':
    case 'set':
      return text;
    case 'binary':
      return padBinary(utf8Encode(text), type.length);
    case 'varbinary':
    case 'blob':
    case 'bit':
      return utf8Encode(text);
    case 'date':
      return parseDateTimeText(text, 'date', 0) ?? undefined;
    case 'datetime':
    case 'timestamp':
      return parseDateTimeText(text, 'datetime', type.scale) ?? undefined;
    case 'time':
      return parseTimeText(text, type.scale) ?? undefined;
    case 'null':
      return null;
  }
}

function integerLiteral(text: string, type: ColumnType): bigint | undefined {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return undefined;
  const v = BigInt(new Decimal(t).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
  const { min, max } = integerBounds(type);
  return v < min || v > max ? undefined : v;
}

function decimalLiteral(text: string, type: ColumnType): Decimal | undefined {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return undefined;
  const d = new Decimal(t).toDecimalPlaces(Math.max(0, type.scale), Decimal.ROUND_HALF_UP);
  if (type.length > 0 && d.abs().gte(new Decimal(10).pow(type.length - type.scale))) return undefined;
  if (type.unsigned && d.isNegative() && !d.isZero()) return undefined;
  return d;
}

function padBinary(b: Uint8Array, length: number): Uint8Array {
  if (length <= b.length) return b;
  const out = new Uint8Array(length);
  out.set(b, 0);
  return out;
}
