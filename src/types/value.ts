import { Decimal } from 'decimal.js';

/**
 * Runtime SQL values, shared by every layer.
 *
 * | SQL type family                      | JS representation                  |
 * |--------------------------------------|------------------------------------|
 * | NULL                                 | `null`                             |
 * | TINYINT..BIGINT, YEAR, BOOLEAN (signed or unsigned) | `bigint`              |
 * | FLOAT, DOUBLE                        | `number`                           |
 * | DECIMAL                              | `Decimal` (decimal.js, exact)      |
 * | CHAR, VARCHAR, TEXT (and JSON text)  | `string`                           |
 * | BINARY, VARBINARY, BLOB              | `Uint8Array`                       |
 * | DATE, DATETIME, TIMESTAMP, TIME      | `DateTime` / `Duration` (below)    |
 *
 * Values are immutable: never mutate a Uint8Array or DateTime you did not create.
 */
export type Value = null | bigint | number | string | Uint8Array | Decimal | DateTime | Duration;

export { Decimal };

/** Decimal context: MySQL DECIMAL holds up to 65 digits. */
Decimal.set({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -100, toExpPos: 100 });

/**
 * A calendar date or date-time without time zone (DATE, DATETIME, TIMESTAMP values).
 * `fsp` is how many fractional digits to print (0-6); `micro` always holds the full value.
 * `kind` 'date' prints only the date part.
 */
export class DateTime {
  constructor(
    readonly kind: 'date' | 'datetime',
    readonly year: number,
    readonly month: number,
    readonly day: number,
    readonly hour = 0,
    readonly minute = 0,
    readonly second = 0,
    readonly micro = 0,
    readonly fsp = 0,
  ) {}

  /** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS[.ffffff]` with exactly `fsp` fraction digits. */
  toString(): string {
    const date = `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
    if (this.kind === 'date') return date;
    const time = `${pad(this.hour, 2)}:${pad(this.minute, 2)}:${pad(this.second, 2)}`;
    if (this.fsp === 0) return `${date} ${time}`;
    return `${date} ${time}.${pad(this.micro, 6).slice(0, this.fsp)}`;
  }

  /**
   * A number that orders date-times chronologically (microseconds since year 0, proleptic,
   * using 31-day months and 12-month years as MySQL's packed format does). Used for comparisons
   * and by the memcomparable codec.
   */
  toPacked(): bigint {
    const ymd = BigInt((this.year * 13 + this.month) * 32 + this.day);
    const hms = BigInt((this.hour * 64 + this.minute) * 64 + this.second);
    return ((ymd << 17n) | hms) * 1_000_000n + BigInt(this.micro);
  }

  static fromPacked(packed: bigint, kind: 'date' | 'datetime', fsp: number): DateTime {
    const micro = Number(packed % 1_000_000n);
    const rest = packed / 1_000_000n;
    const hms = Number(rest & 0x1ffffn);
    const ymd = Number(rest >> 17n);
    const day = ymd % 32;
    const ym = Math.floor(ymd / 32);
    return new DateTime(kind, Math.floor(ym / 13), ym % 13, day, hms >> 12, (hms >> 6) & 63, hms & 63, micro, fsp);
  }

  withKind(kind: 'date' | 'datetime', fsp: number): DateTime {
    if (kind === 'date') return new DateTime('date', this.year, this.month, this.day, 0, 0, 0, 0, 0);
    const micro = fsp >= 6 ? this.micro : Math.floor(this.micro / 10 ** (6 - fsp)) * 10 ** (6 - fsp);
    return new DateTime(kind, this.year, this.month, this.day, this.hour, this.minute, this.second, micro, fsp);
  }
}

/** A TIME value: signed duration with microseconds (`-838:59:59` .. `838:59:59`). */
export class Duration {
  constructor(
    /** Total microseconds, may be negative. */
    readonly micros: bigint,
    readonly fsp = 0,
  ) {}

  /** The magnitude split into whole hours (may exceed 24), minutes, seconds and microseconds. */
  parts(): { negative: boolean; hours: bigint; minutes: number; seconds: number; micro: number } {
    const negative = this.micros < 0n;
    let m = negative ? -this.micros : this.micros;
    const micro = Number(m % 1_000_000n);
    m /= 1_000_000n;
    const seconds = Number(m % 60n);
    m /= 60n;
    return { negative, hours: m / 60n, minutes: Number(m % 60n), seconds, micro };
  }

  /** `[-]HH:MM:SS[.ffffff]` with exactly `fsp` fraction digits. */
  toString(): string {
    const p = this.parts();
    const base = `${p.negative ? '-' : ''}${pad(Number(p.hours), 2)}:${pad(p.minutes, 2)}:${pad(p.seconds, 2)}`;
    return this.fsp === 0 ? base : `${base}.${pad(p.micro, 6).slice(0, this.fsp)}`;
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function isDecimal(v: Value): v is Decimal {
  return v instanceof Decimal;
}
export function isBytes(v: Value): v is Uint8Array {
  return v instanceof Uint8Array;
}
