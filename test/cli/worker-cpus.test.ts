import { describe, expect, it } from 'vitest';
import { allowedCpus, parseCpuList, workerCpus } from '../../src/cli/worker-cpus.js';

describe('parseCpuList', () => {
  it('reads the kernel list format: single CPUs and ranges, comma-separated', () => {
    expect(parseCpuList('0-1')).toEqual([0, 1]);
    expect(parseCpuList('3')).toEqual([3]);
    expect(parseCpuList('0-3,8,10-11\n')).toEqual([0, 1, 2, 3, 8, 10, 11]);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'a', '3-1', '1,,2', '0-', '-1', '1 2']) expect(parseCpuList(bad)).toBeUndefined();
  });
});

describe('allowedCpus', () => {
  it("takes /proc/self/status's Cpus_allowed_list", () => {
    const status = 'Name:\tnode\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t1\n';
    expect(allowedCpus(status)).toEqual([0, 1]);
    expect(allowedCpus('Name:\tnode\n')).toBeUndefined();
  });

  it('reads this process on Linux', () => {
    const cpus = allowedCpus();
    if (process.platform === 'linux') expect(cpus?.length).toBeGreaterThan(0);
  });
});

describe('workerCpus', () => {
  it('gives worker i the i-th allowed CPU when there is one worker per CPU', () => {
    expect(workerCpus(2, [0, 1])).toEqual([0, 1]);
    expect(workerCpus(3, [4, 6, 7])).toEqual([4, 6, 7]);
    expect(workerCpus(4, [0, 1, 2, 3])).toEqual([0, 1, 2, 3]);
  });

  it('does not pin one worker, fewer or more workers than CPUs, or where the CPUs are unknown', () => {
    expect(workerCpus(1, [0])).toBeUndefined();
    expect(workerCpus(2, [4, 6, 7])).toBeUndefined(); // other servers may pin to the same first CPUs
    expect(workerCpus(3, [0, 1])).toBeUndefined();
    expect(workerCpus(2, undefined)).toBeUndefined();
  });
});
