/** The harness's run order (sysbench/bench/schedule.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadGroups, runSchedule, type RunStep } from '../../sysbench/bench/schedule.js';

const label = (s: RunStep): string => `${s.server} ${s.workload} ${s.threads}`;

describe('runSchedule', () => {
  it('interleaved: each cell on every server back to back, the first server alternating', () => {
    expect(runSchedule(2, ['a', 'b'], [1, 8], 'interleaved').map(label)).toEqual([
      '0 a 1', '1 a 1',
      '1 a 8', '0 a 8',
      '0 b 1', '1 b 1',
      '1 b 8', '0 b 8',
    ]);
  });

  it('sequential: all of one server, then the next', () => {
    expect(runSchedule(2, ['a', 'b'], [1], 'sequential').map(label)).toEqual(['0 a 1', '0 b 1', '1 a 1', '1 b 1']);
  });

  it('one server: both orders are the plain workload × threads order', () => {
    const plain = ['0 a 1', '0 a 8', '0 b 1', '0 b 8'];
    expect(runSchedule(1, ['a', 'b'], [1, 8], 'interleaved').map(label)).toEqual(plain);
    expect(runSchedule(1, ['a', 'b'], [1, 8], 'sequential').map(label)).toEqual(plain);
  });

  it('interleaved keeps every server up together; sequential one at a time', () => {
    expect(loadGroups(3, 'interleaved')).toEqual([[0, 1, 2]]);
    expect(loadGroups(3, 'sequential')).toEqual([[0], [1], [2]]);
  });

  it('every measurement exactly once, and interleaved keeps each cell together', () => {
    const arb = fc.record({
      servers: fc.integer({ min: 1, max: 3 }),
      workloads: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }),
      threads: fc.uniqueArray(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(arb, ({ servers, workloads, threads }) => {
        const want = workloads.flatMap((w) => threads.flatMap((t) => Array.from({ length: servers }, (_, s) => `${s} ${w} ${t}`))).sort();
        for (const order of ['interleaved', 'sequential'] as const) {
          expect(runSchedule(servers, workloads, threads, order).map(label).sort()).toEqual(want);
        }
        const inter = runSchedule(servers, workloads, threads, 'interleaved');
        for (let i = 0; i < inter.length; i += servers) {
          const group = inter.slice(i, i + servers);
          expect(new Set(group.map((s) => `${s.workload} ${s.threads}`)).size).toBe(1);
          expect(new Set(group.map((s) => s.server)).size).toBe(servers);
        }
      }),
    );
  });
});
