/** Number, size, duration and statement-excerpt formatting for `shale import` output. */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 1536 → "1.5 KiB". */
export function formatBytes(n: number): string {
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(1)} ${UNITS[u]}`;
}

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** 83500 ms → "1m23s"; under a minute with one decimal ("4.2s"). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const total = Math.round(s);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(sec).padStart(2, '0')}s`;
}

/** Per-second rate of `n` over `ms`, rounded; 0 before any time has passed. */
export function perSecond(n: number, ms: number): number {
  return ms <= 0 ? 0 : Math.round((n * 1000) / ms);
}

/** The start of a statement on one line (whitespace runs collapsed), at most `max` characters. */
export function excerpt(sql: Buffer, max = 160): string {
  const head = sql.subarray(0, max * 4).toString('utf8').replace(/\s+/g, ' ').trim();
  const chars = [...head];
  return chars.length > max || sql.length > max * 4 ? chars.slice(0, max).join('') + ' …' : head;
}
