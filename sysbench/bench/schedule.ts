/**
 * In which order the harness runs its measurements.
 *
 * - `interleaved` (the default): every server is started and loaded first (the bulk loads one
 *   after another, so they do not compete), then each workload × thread count runs on every
 *   server back to back, the server that goes first alternating from one step to the next. A
 *   ratio then compares two runs about a minute apart, so a machine that gets faster or slower
 *   over the ~25 minutes of a full run (a shared host, a throttled disk) shifts both sides alike,
 *   and neither server always runs right after the other's writes.
 * - `sequential`: one server at a time, all its runs, then the next (only one server is up at
 *   any moment).
 *
 * Example, servers [shaledb, mariadb], workloads [a, b], threads [1]:
 *   interleaved: shaledb a 1, mariadb a 1, mariadb b 1, shaledb b 1
 *   sequential:  shaledb a 1, shaledb b 1, mariadb a 1, mariadb b 1
 */
export const RUN_ORDERS = ['interleaved', 'sequential'] as const;
export type RunOrder = (typeof RUN_ORDERS)[number];

export interface RunStep {
  /** Index into the harness's server list. */
  readonly server: number;
  readonly workload: string;
  readonly threads: number;
  /** 1-based round of --repeat. */
  readonly round: number;
}

/**
 * Every (server, workload, threads) measurement `rounds` times (--repeat), in `order`; a cell's
 * rounds follow each other (interleaved: each round on every server, the first server still
 * alternating from one round to the next).
 */
export function runSchedule(serverCount: number, workloads: readonly string[], threads: readonly number[], order: RunOrder, rounds = 1): RunStep[] {
  const cells = workloads.flatMap((workload) => threads.flatMap((t) => Array.from({ length: rounds }, (_, r) => ({ workload, threads: t, round: r + 1 }))));
  const servers = Array.from({ length: serverCount }, (_, i) => i);
  if (order === 'sequential') return servers.flatMap((server) => cells.map((c) => ({ server, ...c })));
  return cells.flatMap((c, i) => (i % 2 === 0 ? servers : [...servers].reverse()).map((server) => ({ server, ...c })));
}

/** Which servers are up at the same time, in start order: all of them, or one at a time. */
export function loadGroups(serverCount: number, order: RunOrder): number[][] {
  const servers = Array.from({ length: serverCount }, (_, i) => i);
  return order === 'sequential' ? servers.map((i) => [i]) : [servers];
}
