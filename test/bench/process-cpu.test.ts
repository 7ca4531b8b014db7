import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuBetween, cpuPerTxn, processTreeCpu, reapedChildrenCpu, statChildrenCpu, statCpu } from '../../sysbench/bench/process-cpu.js';

describe('process CPU', () => {
  it('reads utime and stime after the last parenthesis of the command, in seconds', () => {
    expect(statCpu('12 (node) S 7 12 7 0 -1 4194560 900 0 0 0 250 40 0 0 20 0 11')).toEqual({ userS: 2.5, systemS: 0.4 });
    expect(statCpu('13 (a) (b) R 1 13 1 0 -1 0 0 0 0 0 7 3 0 0')).toEqual({ userS: 0.07, systemS: 0.03 });
    expect(statCpu('garbage')).toBeUndefined();
    expect(statCpu('14 (short) S 1 14')).toBeUndefined();
  });

  it('reads the reaped children\'s cutime and cstime, the two fields after stime', () => {
    expect(statChildrenCpu('12 (node) S 7 12 7 0 -1 0 0 0 0 0 250 40 310 95 20 0 11')).toEqual({ userS: 3.1, systemS: 0.95 });
    expect(statChildrenCpu('12 (node) S 7 12 7 0 -1 0 0 0 0 0 250 40')).toBeUndefined();
    expect(statChildrenCpu('garbage')).toBeUndefined();
  });

  it("counts a child's CPU once it exited and was reaped (a sysbench run's client CPU)", async () => {
    const before = reapedChildrenCpu();
    const child = spawn(process.execPath, ['-e', 'while (process.cpuUsage().user < 300000);'], { stdio: 'ignore' });
    await once(child, 'close');
    const after = reapedChildrenCpu();
    const used = cpuBetween(before, after);
    expect(used?.userS).toBeGreaterThanOrEqual(0.28);
  });

  it('subtracts two readings to the tick', () => {
    expect(cpuBetween({ userS: 1.1, systemS: 0.2 }, { userS: 3.3, systemS: 0.9 })).toEqual({ userS: 2.2, systemS: 0.7 });
    expect(cpuBetween(undefined, { userS: 3.3, systemS: 0.9 })).toBeUndefined();
  });

  it('divides the CPU between two readings over the transactions, in µs', () => {
    expect(cpuPerTxn({ userS: 1, systemS: 2 }, { userS: 4, systemS: 2.5 }, 10_000)).toEqual({ userUs: 300, systemUs: 50 });
    expect(cpuPerTxn(undefined, { userS: 4, systemS: 2.5 }, 10_000)).toBeUndefined();
    expect(cpuPerTxn({ userS: 1, systemS: 2 }, { userS: 4, systemS: 2.5 }, 0)).toBeUndefined();
    expect(cpuPerTxn({ userS: 1, systemS: 2 }, { userS: 4, systemS: 2.5 }, Number.NaN)).toBeUndefined();
  });

  it("counts a busy child in its parent's tree; undefined for a pid that does not exist or none", async () => {
    // The child spins until it has used 600 ms of user time, then sleeps until killed.
    const spin = 'while (process.cpuUsage().user < 600000); setTimeout(() => {}, 60000)';
    const before = processTreeCpu(process.pid);
    const child = spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
    try {
      let childCpu = processTreeCpu(child.pid as number);
      for (let i = 0; i < 200 && (childCpu?.userS ?? 0) < 0.55; i++) {
        await new Promise((r) => setTimeout(r, 100));
        childCpu = processTreeCpu(child.pid as number);
      }
      expect(childCpu?.userS).toBeGreaterThanOrEqual(0.55);
      const mine = processTreeCpu(process.pid);
      expect((mine?.userS ?? 0) + (mine?.systemS ?? 0) - (before?.userS ?? 0) - (before?.systemS ?? 0)).toBeGreaterThanOrEqual(0.55);
      expect(processTreeCpu(2 ** 22 + 7)).toBeUndefined();
      expect(processTreeCpu(undefined)).toBeUndefined();
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});
