/**
 * How much memory a server holds: the resident set (VmRSS) of its process and every descendant
 * (`shale serve --workers N` forks workers), read from /proc, and the anonymous part of it
 * (RssAnon: heaps, buffers, malloc). The harness records both after each run, so a server whose
 * memory keeps growing from run to run shows in the report (the LMDB young-pages leak grew
 * ShaleDB by ~24 MB/s of writes before it was found and fixed). The resident set also counts the
 * pages of mapped files a process touched: every ShaleDB worker maps LMDB's data file, so it
 * grows with that file while the anonymous memory stays flat.
 *
 * /proc/<pid>/stat: "12 (node) S 7 ..." — the parent pid is the second field after the command,
 * which sits in parentheses and may itself contain spaces or parentheses (so parse from the last ')').
 * /proc/<pid>/status: "VmRSS:     204800 kB", "RssAnon:    61440 kB".
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of a /proc/<pid>/stat line after the command (state first), or undefined if it has none. */
export function statFields(statLine: string): string[] | undefined {
  const end = statLine.lastIndexOf(')');
  return end < 0 ? undefined : statLine.slice(end + 2).split(' ');
}

/** The parent pid in a /proc/<pid>/stat line, or undefined if it does not parse. */
export function parentPid(statLine: string): number | undefined {
  const fields = statFields(statLine);
  if (fields === undefined) return undefined;
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid >= 0 ? ppid : undefined;
}

/** A field of a /proc/<pid>/status text in KiB (absent for kernel threads and zombies). */
export function statusKiB(statusText: string, field: 'VmRSS' | 'RssAnon'): number | undefined {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(statusText);
  return m === null ? undefined : Number(m[1]);
}

/** A process tree's memory in MiB: resident (mapped files included) and anonymous. */
export interface TreeMemory {
  readonly rssMiB: number;
  readonly anonMiB: number;
}

/** `root` and every pid whose chain of parents reaches it, given each pid's parent. */
export function descendants(parents: ReadonlyMap<number, number>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid);
    if (list === undefined) children.set(ppid, [pid]);
    else list.push(pid);
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop() as number;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

export function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process exited meanwhile, or no /proc here
  }
}

/** `root` and its descendants now, root first; undefined when /proc cannot be listed (not Linux). */
export function processTree(root: number): number[] | undefined {
  const parents = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const name of pids) {
    const stat = readOr(`/proc/${name}/stat`);
    const ppid = stat === undefined ? undefined : parentPid(stat);
    if (ppid !== undefined) parents.set(Number(name), ppid);
  }
  return descendants(parents, root);
}

/** Memory of `root` and its descendants; undefined when /proc cannot tell (not Linux, root gone). */
export function processTreeMemory(root: number): TreeMemory | undefined {
  const tree = processTree(root);
  if (tree === undefined) return undefined;
  const [own, ...others] = tree.map((pid) => readOr(`/proc/${pid}/status`) ?? '');
  const sum = (field: 'VmRSS' | 'RssAnon'): number | undefined => {
    const first = own === undefined ? undefined : statusKiB(own, field);
    if (first === undefined) return undefined;
    return Math.round(others.reduce<number>((total, text) => total + (statusKiB(text, field) ?? 0), first) / 1024);
  };
  const rssMiB = sum('VmRSS');
  const anonMiB = sum('RssAnon');
  return rssMiB === undefined || anonMiB === undefined ? undefined : { rssMiB, anonMiB };
}
