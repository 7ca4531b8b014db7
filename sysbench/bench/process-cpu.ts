/**
 * How much CPU a server used during a run: the user and system time of its process and every
 * descendant (`shale serve --workers N` forks its workers; MariaDB is one process with a thread
 * per connection), from /proc/<pid>/stat, whose utime and stime count all of a process's threads.
 * Per transaction and beside MariaDB's, it tells a gap of CPU spent (in user space or in the
 * kernel) from a gap of time spent waiting (ARCHITECTURE.md, "What bounds read throughput").
 *
 * /proc/<pid>/stat, after the command's closing parenthesis: state ppid pgrp session tty_nr
 * tpgid flags minflt cminflt majflt cmajflt utime stime ..., in ticks of USER_HZ (100 a second on
 * Linux); e.g. `12 (node) S 7 12 7 0 -1 4194560 900 0 0 0 250 40 0 0 20 0 11` has utime 250 and
 * stime 40 ticks: 2.5 s of user and 0.4 s of system time.
 */
import { processTree, readOr, statFields } from './process-memory.js';

/** Ticks per second of /proc's CPU times (USER_HZ; 100 on every Linux architecture Node runs on). */
export const USER_HZ = 100;

export interface CpuTime {
  readonly userS: number;
  readonly systemS: number;
}

/** Server CPU per transaction of a run, µs. */
export interface CpuPerTxn {
  readonly userUs: number;
  readonly systemUs: number;
}

/** utime and stime of a /proc/<pid>/stat line in seconds; undefined if it does not parse. */
export function statCpu(statLine: string): CpuTime | undefined {
  return ticksAt(statLine, 11);
}

/**
 * cutime and cstime of a /proc/<pid>/stat line in seconds (the two fields after stime): the CPU
 * of the process's children that exited and were waited for, e.g. `12 (node) S 7 12 7 0 -1 0 0 0 0
 * 0 250 40 310 95` has 3.1 s of user and 0.95 s of system time of reaped children.
 */
export function statChildrenCpu(statLine: string): CpuTime | undefined {
  return ticksAt(statLine, 13);
}

function ticksAt(statLine: string, at: number): CpuTime | undefined {
  const fields = statFields(statLine);
  if (fields === undefined) return undefined;
  const user = Number(fields[at]);
  const system = Number(fields[at + 1]);
  if (!Number.isInteger(user) || !Number.isInteger(system) || user < 0 || system < 0) return undefined;
  return { userS: user / USER_HZ, systemS: system / USER_HZ };
}

/**
 * The CPU of this process's children that exited and were reaped so far; undefined without /proc.
 * Read before and after one sysbench run, it is the client's CPU in that run (the harness's other
 * children, the servers, are still running then and not counted): on a machine whose cores the
 * client shares with the server, CPU the client spends per transaction is taken from the server.
 */
export function reapedChildrenCpu(): CpuTime | undefined {
  const stat = readOr('/proc/self/stat');
  return stat === undefined ? undefined : statChildrenCpu(stat);
}

/** CPU time of `root` and its descendants so far; undefined when /proc cannot tell (not Linux, no or no such root). */
export function processTreeCpu(root: number | undefined): CpuTime | undefined {
  const tree = root === undefined ? undefined : processTree(root);
  if (tree === undefined) return undefined;
  let userS = 0;
  let systemS = 0;
  for (const pid of tree) {
    const stat = readOr(`/proc/${pid}/stat`);
    const cpu = stat === undefined ? undefined : statCpu(stat);
    if (cpu === undefined) {
      if (pid === root) return undefined;
      continue; // a worker that exited meanwhile
    }
    userS += cpu.userS;
    systemS += cpu.systemS;
  }
  return { userS, systemS };
}

/** The CPU used between two readings (seconds, to the hundredth: /proc counts ticks); undefined without both. */
export function cpuBetween(before: CpuTime | undefined, after: CpuTime | undefined): CpuTime | undefined {
  if (before === undefined || after === undefined) return undefined;
  const s = (x: number): number => Math.round(x * USER_HZ) / USER_HZ;
  return { userS: s(after.userS - before.userS), systemS: s(after.systemS - before.systemS) };
}

/** The CPU between two readings divided over `transactions`; undefined without both readings or transactions. */
export function cpuPerTxn(before: CpuTime | undefined, after: CpuTime | undefined, transactions: number): CpuPerTxn | undefined {
  const used = cpuBetween(before, after);
  if (used === undefined || !(transactions > 0)) return undefined;
  const us = (s: number): number => Math.round((s * 1e6) / transactions);
  return { userUs: us(used.userS), systemUs: us(used.systemS) };
}
