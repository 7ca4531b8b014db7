/** The harness's reading of /proc/stat (steal and idle over a measurement). */
import { describe, expect, it } from 'vitest';
import { cpuShare, parseCpuLine, withCpuShare } from '../../sysbench/bench/cpu-sample.js';

const STAT = 'cpu  4705 356 584 3699 23 23 0 12 0 0\ncpu0 2000 100 300 1800 10 10 0 6 0 0\nintr 1 2 3\n';

describe('parseCpuLine', () => {
  it('reads the aggregate line: idle includes iowait, the total the first eight fields', () => {
    expect(parseCpuLine(STAT)).toEqual({ idle: 3722, steal: 12, total: 4705 + 356 + 584 + 3699 + 23 + 23 + 0 + 12 });
  });
  it('refuses text without a well-formed aggregate line', () => {
    expect(parseCpuLine('cpu0 1 2 3 4 5 6 7 8\n')).toBeUndefined();
    expect(parseCpuLine('cpu  1 2 3\n')).toBeUndefined();
    expect(parseCpuLine('cpu  1 2 3 x 5 6 7 8\n')).toBeUndefined();
  });
});

describe('cpuShare', () => {
  it('is the percentage of the ticks between two readings, to one decimal', () => {
    const before = { idle: 100, steal: 10, total: 1000 };
    expect(cpuShare(before, { idle: 400, steal: 130, total: 1800 })).toEqual({ stealPct: 15, idlePct: 37.5 });
    expect(cpuShare(before, { idle: 101, steal: 10, total: 1003 })).toEqual({ stealPct: 0, idlePct: 33.3 });
  });
  it('is undefined when no tick passed', () => {
    const t = { idle: 1, steal: 1, total: 10 };
    expect(cpuShare(t, t)).toBeUndefined();
  });
});

describe('withCpuShare', () => {
  it('returns what the measured function returned', async () => {
    const { result, cpu } = await withCpuShare(async () => {
      const until = Date.now() + 60;
      while (Date.now() < until); // let the kernel count some ticks
      return 42;
    });
    expect(result).toBe(42);
    if (process.platform === 'linux') {
      expect(cpu).toBeDefined();
      expect(cpu?.stealPct).toBeGreaterThanOrEqual(0);
      expect(cpu?.idlePct).toBeLessThanOrEqual(100);
    }
  });
});
