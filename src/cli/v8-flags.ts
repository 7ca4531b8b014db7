/**
 * V8 flags a SQL node runs with. A process cannot change its young generation once started, so
 * they go on the command line of every process that serves SQL: `bin/shale.js`'s shebang (for
 * `npx shale serve`), `npm run serve`, the Docker image's entrypoint, the processes `shale
 * cluster up` and the benchmark harness start, and the workers of `serve --workers N`.
 *
 * Semi-spaces of 32 MiB instead of V8's 16: a multi-row INSERT or a backfill batch allocates
 * megabytes that live until its commit; with 16 MiB they outlive two scavenges and are copied
 * into the old generation, whose fresh pages each cost a page fault. sysbench's prepare of 4 x
 * 100k rows, `--workers 2`: rows 2.00-2.19 s against 2.44-2.66 s, server CPU -22 %, page
 * faults 47k against 64-79k (one process: -25 % CPU); 64 MiB was slower than either. Single-row
 * workloads did not move (ARCHITECTURE.md, "What bounds bulk load").
 */
export const SQL_NODE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

/**
 * execArgv for `serve --workers N`'s workers: this process's, SQL_NODE_V8_FLAGS where neither it
 * nor NODE_OPTIONS sets the flag already, and `extra`.
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined, extra: readonly string[] = []): string[] {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  const flagName = (flag: string): string => (flag.split('=')[0] as string).replaceAll('_', '-');
  const missing = SQL_NODE_V8_FLAGS.filter((f) => !given.some((g) => flagName(g) === flagName(f)));
  return [...execArgv, ...missing, ...extra];
}
