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

  it('--repeat: the rounds of a cell follow each other, the first server alternating across rounds too', () => {
    const steps = runSchedule(2, ['a', 'b'], [1], 'interleaved', 2).map((s) => `${label(s)} r${s.round}`);
    expect(steps).toEqual(['0 a 1 r1', '1 a 1 r1', '1 a 1 r2', '0 a 1 r2', '0 b 1 r1', '1 b 1 r1', '1 b 1 r2', '0 b 1 r2']);
    expect(runSchedule(2, ['a'], [1], 'sequential', 2).map((s) => `${label(s)} r${s.round}`)).toEqual(['0 a 1 r1', '0 a 1 r2', '1 a 1 r1', '1 a 1 r2']);
  });

  it('interleaved keeps every server up together; sequential one at a time', () => {
    expect(loadGroups(3, 'interleaved')).toEqual([[0, 1, 2]]);
    expect(loadGroups(3, 'sequential')).toEqual([[0], [1], [2]]);
  });

  it('every measurement exactly once per round, and interleaved keeps each round of a cell together', () => {
    const arb = fc.record({
      servers: fc.integer({ min: 1, max: 3 }),
      workloads: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }),
      threads: fc.uniqueArray(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 3 }),
      rounds: fc.integer({ min: 1, max: 3 }),
    });
    const withRound = (s: RunStep): string => `${label(s)} r${s.round}`;
    fc.assert(
      fc.property(arb, ({ servers, workloads, threads, rounds }) => {
        const want = workloads
          .flatMap((w) => threads.flatMap((t) => Array.from({ length: servers * rounds }, (_, i) => `${i % servers} ${w} ${t} r${Math.floor(i / servers) + 1}`)))
          .sort();
        for (const order of ['interleaved', 'sequential'] as const) {
          expect(runSchedule(servers, workloads, threads, order, rounds).map(withRound).sort()).toEqual(want);
        }
        const inter = runSchedule(servers, workloads, threads, 'interleaved', rounds);
        for (let i = 0; i < inter.length; i += servers) {
          const group = inter.slice(i, i + servers);
          expect(new Set(group.map((s) => `${s.workload} ${s.threads} ${s.round}`)).size).toBe(1);
          expect(new Set(group.map((s) => s.server)).size).toBe(servers);
        }
      }),
    );
  });
});
