/** NOW() of a statement in the session time zone (`SYSTEM`, `+hh:mm` or a named zone). */
import { DateTime } from '../../types/index.js';
import { timeZoneOffsetMinutes } from './variable-values.js';

export function wallClock(epochMs: number, timeZone: string): DateTime {
  const micro = (epochMs % 1000) * 1000;
  if (timeZone === 'SYSTEM') {
    const d = new Date(epochMs);
    return new DateTime('datetime', d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), micro, 6);
  }
  const offset = timeZoneOffsetMinutes(timeZone);
  if (offset !== undefined) return utcParts(epochMs + offset * 60_000, micro);
  return zoneParts(epochMs, timeZone, micro);
}

function utcParts(ms: number, micro: number): DateTime {
  const d = new Date(ms);
  return new DateTime('datetime', d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), micro, 6);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function zoneParts(ms: number, timeZone: string, micro: number): DateTime {
  let fmt = formatters.get(timeZone);
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      return utcParts(ms, micro);
    }
    formatters.set(timeZone, fmt);
  }
  const part = (type: string): number => Number(fmt.formatToParts(new Date(ms)).find((p) => p.type === type)?.value ?? 0);
  return new DateTime('datetime', part('year'), part('month'), part('day'), part('hour'), part('minute'), part('second'), micro, 6);
}
