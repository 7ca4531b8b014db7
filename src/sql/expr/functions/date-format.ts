/** DATE_FORMAT(date, format) specifiers (MySQL 8.0, English names). */
import type { DateTime } from '../../../types/index.js';
import { dayNumber, daysFromCivil } from '../date-math.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** 0 = Monday ... 6 = Sunday (MySQL WEEKDAY()). */
export function weekday(dt: DateTime): number {
  return (dayNumber(dt) + 5) % 7;
}

export function dayOfYear(dt: DateTime): number {
  return dayNumber(dt) - daysFromCivil(dt.year, 1, 1) + 1;
}

function ordinal(d: number): string {
  if (d >= 11 && d <= 13) return `${d}th`;
  const last = d % 10;
  return `${d}${last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th'}`;
}

function hour12(h: number): number {
  return h % 12 === 0 ? 12 : h % 12;
}

function specifier(c: string, dt: DateTime): string {
  switch (c) {
    case 'Y': return pad(dt.year, 4);
    case 'y': return pad(dt.year % 100, 2);
    case 'm': return pad(dt.month, 2);
    case 'c': return String(dt.month);
    case 'd': return pad(dt.day, 2);
    case 'e': return String(dt.day);
    case 'D': return ordinal(dt.day);
    case 'H': return pad(dt.hour, 2);
    case 'k': return String(dt.hour);
    case 'h': case 'I': return pad(hour12(dt.hour), 2);
    case 'l': return String(hour12(dt.hour));
    case 'i': return pad(dt.minute, 2);
    case 's': case 'S': return pad(dt.second, 2);
    case 'f': return pad(dt.micro, 6);
    case 'p': return dt.hour < 12 ? 'AM' : 'PM';
    case 'M': return MONTHS[dt.month - 1] ?? '';
    case 'b': return (MONTHS[dt.month - 1] ?? '').slice(0, 3);
    case 'W': return DAYS[weekday(dt)] ?? '';
    case 'a': return (DAYS[weekday(dt)] ?? '').slice(0, 3);
    case 'w': return String((weekday(dt) + 1) % 7);
    case 'j': return pad(dayOfYear(dt), 3);
    case 'T': return `${pad(dt.hour, 2)}:${pad(dt.minute, 2)}:${pad(dt.second, 2)}`;
    case 'r': return `${pad(hour12(dt.hour), 2)}:${pad(dt.minute, 2)}:${pad(dt.second, 2)} ${dt.hour < 12 ? 'AM' : 'PM'}`;
    default: return c;
  }
}

export function formatDate(dt: DateTime, format: string): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (ch === '%' && i + 1 < format.length) out += specifier(format[++i] as string, dt);
    else out += ch;
  }
  return out;
}
