import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { descendants, parentPid, processTreeMemory, statusKiB } from '../../sysbench/bench/process-memory.js';

describe('process memory', () => {
  it('parses the parent pid after the last parenthesis of the command', () => {
    expect(parentPid('4242 (node) S 17 4242 17 0 -1 4194560')).toBe(17);
    expect(parentPid('4243 (weird) (name) R 1 4243 1 0')).toBe(1);
    expect(parentPid('garbage')).toBeUndefined();
  });

  it('reads VmRSS and RssAnon in KiB, undefined when absent', () => {
    const text = 'Name:\tnode\nVmPeak:\t 900 kB\nVmRSS:\t  204800 kB\nRssAnon:\t 1 kB\n';
    expect(statusKiB(text, 'VmRSS')).toBe(204800);
    expect(statusKiB(text, 'RssAnon')).toBe(1);
    expect(statusKiB('Name:\tkthreadd\nState:\tS (sleeping)\n', 'VmRSS')).toBeUndefined();
  });

  it('walks every descendant of the root and nothing else', () => {
    const parents = new Map([[10, 1], [11, 10], [12, 11], [13, 10], [20, 1], [21, 20]]);
    expect(descendants(parents, 10).sort()).toEqual([10, 11, 12, 13]);
    expect(descendants(parents, 12)).toEqual([12]);
  });

  it("sums this process's tree from /proc, a child included; undefined for a pid that does not exist", async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const own = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
      const childMem = processTreeMemory(child.pid as number);
      const childRss = childMem?.rssMiB as number;
      expect(childRss).toBeGreaterThan(10);
      expect(childMem?.anonMiB).toBeGreaterThan(1);
      expect(childMem?.anonMiB).toBeLessThan(childRss);
      expect(processTreeMemory(process.pid)?.rssMiB).toBeGreaterThanOrEqual(Math.floor(own + childRss) - 2);
      expect(processTreeMemory(2 ** 22 + 7)).toBeUndefined();
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});
