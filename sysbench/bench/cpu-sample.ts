/**
 * The machine's CPU over one measurement, from the aggregate `cpu` line of /proc/stat: how much
 * of it the hypervisor gave to other guests (steal) and how much sat idle. On a shared virtual
 * machine steal comes and goes by the minute and takes throughput with it, so the report shows
 * it beside the runs it affected (a ratio whose two runs saw different steal is less certain).
 *
 * The line's fields, in USER_HZ ticks since boot:
 *   cpu  user nice system idle iowait irq softirq steal guest guest_nice
 * e.g. `cpu  4705 356 584 3699 23 23 0 12 0 0`. guest and guest_nice are already counted in
 * user and nice, so the total is the first eight fields.
 */
import { readFile } from 'node:fs/promises';

export interface CpuTicks {
  readonly idle: number;
  readonly steal: number;
  readonly total: number;
}

/** Percent of the machine's CPU time during a measurement. */
export interface CpuShare {
  readonly stealPct: number;
  readonly idlePct: number;
}

/** The aggregate line of /proc/stat's text; undefined if it has none or it is malformed. */
export function parseCpuLine(stat: string): CpuTicks | undefined {
  const line = stat.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) return undefined;
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 8 || f.some((x) => !Number.isFinite(x) || x < 0)) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f as [number, number, number, number, number, number, number, number];
  return { idle: idle + iowait, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** The share of steal and idle between two readings; undefined when no tick passed. */
export function cpuShare(before: CpuTicks, after: CpuTicks): CpuShare | undefined {
  const total = after.total - before.total;
  if (total <= 0) return undefined;
  const pct = (x: number): number => Math.round((1000 * x) / total) / 10;
  return { stealPct: pct(after.steal - before.steal), idlePct: pct(after.idle - before.idle) };
}

async function readTicks(): Promise<CpuTicks | undefined> {
  try {
    return parseCpuLine(await readFile('/proc/stat', 'utf8'));
  } catch {
    return undefined; // not Linux: the report simply has no CPU line
  }
}

/** Runs `fn` and returns its result with the machine's CPU share over it (undefined where /proc/stat is missing). */
export async function withCpuShare<T>(fn: () => Promise<T>): Promise<{ result: T; cpu: CpuShare | undefined }> {
  const before = await readTicks();
  const result = await fn();
  const after = await readTicks();
  return { result, cpu: before === undefined || after === undefined ? undefined : cpuShare(before, after) };
}
