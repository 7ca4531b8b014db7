/**
 * Validation and normalization of values assigned to system variables by SET. MySQL's
 * answers: a wrong type is 1232, an unacceptable value 1231, unknown charsets 1115 and
 * unknown collations 1273.
 */
import { SqlError } from '../../errors/index.js';
import { Decimal, type Value } from '../../types/index.js';
import { valueToString } from '../expr/index.js';
import { canonicalCharset, canonicalCollation } from './charset.js';
import type { VarDef } from './system-variables.js';

const SQL_MODES: ReadonlySet<string> = new Set([
  'ALLOW_INVALID_DATES', 'ANSI_QUOTES', 'ERROR_FOR_DIVISION_BY_ZERO', 'HIGH_NOT_PRECEDENCE', 'IGNORE_SPACE',
  'NO_AUTO_VALUE_ON_ZERO', 'NO_BACKSLASH_ESCAPES', 'NO_DIR_IN_CREATE', 'NO_ENGINE_SUBSTITUTION',
  'NO_UNSIGNED_SUBTRACTION', 'NO_ZERO_DATE', 'NO_ZERO_IN_DATE', 'ONLY_FULL_GROUP_BY', 'PAD_CHAR_TO_FULL_LENGTH',
  'PIPES_AS_CONCAT', 'REAL_AS_FLOAT', 'STRICT_ALL_TABLES', 'STRICT_TRANS_TABLES', 'TIME_TRUNCATE_FRACTIONAL',
]);

const SQL_MODE_COMBOS: ReadonlyMap<string, string> = new Map([
  ['ANSI', 'REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY'],
  ['TRADITIONAL', 'STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'],
]);

const ISOLATION_LEVELS: ReadonlySet<string> = new Set(['READ-UNCOMMITTED', 'READ-COMMITTED', 'REPEATABLE-READ', 'SERIALIZABLE']);

export function normalizeVariableValue(d: VarDef, v: Value): Value {
  if (v === null) {
    if (d.nullable) return null;
    throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', d.name, 'NULL');
  }
  switch (d.kind) {
    case 'int':
      return toInteger(d, v);
    case 'double':
      return toDouble(d, v);
    case 'bool':
      return toBool(d, v);
    case 'string':
      return valueToString(v);
    case 'isolation':
      return toIsolation(d, v);
    case 'sqlMode':
      return toSqlMode(d, v);
    case 'charset':
      return toCharset(v);
    case 'collation':
      return toCollation(v);
    case 'timeZone':
      return toTimeZone(d, v);
    case 'enum':
      return toEnum(d, v);
  }
}

function toInteger(d: VarDef, v: Value): bigint {
  if (typeof v === 'bigint') return v < 0n ? 0n : v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.max(0, Math.round(v)));
  if (v instanceof Decimal) return BigInt(v.isNegative() ? 0 : v.round().toFixed(0));
  throw SqlError.of('ER_WRONG_TYPE_FOR_VAR', d.name);
}

function toDouble(d: VarDef, v: Value): number {
  const n = typeof v === 'bigint' ? Number(v) : v instanceof Decimal ? v.toNumber() : v;
  if (typeof n === 'number' && Number.isFinite(n)) return n;
  throw SqlError.of('ER_WRONG_TYPE_FOR_VAR', d.name);
}

function toBool(d: VarDef, v: Value): bigint {
  if (typeof v === 'bigint' && (v === 0n || v === 1n)) return v;
  if (typeof v === 'string') {
    const s = v.toUpperCase();
    if (s === 'ON' || s === 'TRUE' || s === '1') return 1n;
    if (s === 'OFF' || s === 'FALSE' || s === '0') return 0n;
  }
  throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', d.name, valueToString(v));
}

/** Accepts `READ COMMITTED`, `read-committed` and `READ_COMMITTED` alike. */
export function normalizeIsolation(text: string): string | undefined {
  const s = text.trim().toUpperCase().replace(/[\s_]+/g, '-');
  return ISOLATION_LEVELS.has(s) ? s : undefined;
}

function toIsolation(d: VarDef, v: Value): string {
  const s = normalizeIsolation(valueToString(v));
  if (s === undefined) throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', d.name, valueToString(v));
  return s;
}

function toSqlMode(d: VarDef, v: Value): string {
  const parts = valueToString(v).toUpperCase().split(',').map((p) => p.trim()).filter((p) => p !== '');
  const out: string[] = [];
  for (const p of parts) {
    const combo = SQL_MODE_COMBOS.get(p);
    const expanded = combo === undefined ? [p] : combo.split(',');
    for (const mode of expanded) {
      if (!SQL_MODES.has(mode)) throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', d.name, p);
      if (!out.includes(mode)) out.push(mode);
    }
  }
  return out.join(',');
}

function toCharset(v: Value): string {
  const cs = canonicalCharset(valueToString(v));
  if (cs === undefined) throw SqlError.of('ER_UNKNOWN_CHARACTER_SET', valueToString(v));
  return cs;
}

function toCollation(v: Value): string {
  const c = canonicalCollation(valueToString(v));
  if (c === undefined) throw SqlError.of('ER_UNKNOWN_COLLATION', valueToString(v));
  return c.name;
}

function toTimeZone(d: VarDef, v: Value): string {
  const s = valueToString(v).trim();
  if (s.toUpperCase() === 'SYSTEM') return 'SYSTEM';
  if (timeZoneOffsetMinutes(s) !== undefined) return s;
  if (isNamedZone(s)) return s;
  throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', d.name, s);
}

function toEnum(d: VarDef, v: Value): string {
  const values = d.values ?? [];
  if (typeof v === 'bigint') {
    const byIndex = values[Number(v)];
    if (byIndex !== undefined) return byIndex;
  }
  const s = valueToString(v).toUpperCase();
  if (values.includes(s)) return s;
  throw SqlError.of('ER_WRONG_VALUE_FOR_VAR', d.name, valueToString(v));
}

/** `+hh:mm` / `-hh:mm` (MySQL range -13:59 .. +14:00) -> minutes east of UTC. */
export function timeZoneOffsetMinutes(tz: string): number | undefined {
  const m = /^([+-])(\d{1,2}):(\d{2})$/.exec(tz);
  if (m === null) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[3]) > 59 || minutes > 14 * 60) return undefined;
  return m[1] === '-' ? -minutes : minutes;
}

function isNamedZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
