/**
 * Child processes of a local cluster: started detached (own session, output to a log file) so
 * they outlive `shale cluster up`, and later stopped by pid, but only after /proc shows the pid
 * still runs the program we started (pids are reused).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** A process we started, while `up` still has its handle. */
export interface Started {
  readonly pid: number;
  readonly child: ChildProcess;
  readonly logFile: string;
  /** The exit code or signal once it has exited, else undefined. */
  exited(): string | undefined;
}

/** Starts `command args` detached, appending stdout and stderr to `logFile`. */
export async function spawnDetached(command: string, args: readonly string[], logFile: string): Promise<Started> {
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let exit: string | undefined;
  child.once('exit', (code, signal) => {
    exit = signal !== null ? `killed by ${signal}` : `exited with code ${code ?? '?'}`;
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', (err) => reject(new Error(`cannot start ${command}: ${err.message}`)));
  });
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${command}: no pid`);
  return { pid, child, logFile, exited: () => exit };
}

/** The absolute path of `name` found on PATH, or undefined. */
export function findExecutable(name: string): string | undefined {
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean);
  for (const dir of isAbsolute(name) ? [''] : [...dirs, '/usr/sbin', '/usr/local/sbin', '/sbin']) {
    const full = dir === '' ? name : join(dir, name);
    try {
      accessSync(full, constants.X_OK);
      return full;
    } catch {
      // not here
    }
  }
  return undefined;
}

export type ProcState = 'running' | 'zombie' | 'gone';

/** Whether `pid` runs. An unreaped zombie counts as stopped: it holds no ports or files. */
export function procState(pid: number): ProcState {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return signalZeroAlive(pid) ? 'running' : 'gone';
  }
  // "pid (comm) S ...": comm may contain spaces and parentheses, the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X' ? 'zombie' : 'running';
}

function signalZeroAlive(pid: number): boolean {
  if (process.platform === 'linux') return false; // no /proc entry on Linux means no process
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

export function isRunning(pid: number): boolean {
  return procState(pid) === 'running';
}

/** The argument vector of `pid` from /proc, or undefined when it cannot be read. */
export function readArgv(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return undefined;
  }
}

/** Decides from an argument vector whether a pid still runs the process we recorded. */
export type Ownership = (argv: readonly string[]) => boolean;

export type StopOutcome = 'stopped' | 'killed' | 'not running' | 'not ours' | 'still running';

/**
 * SIGTERM, wait up to `graceMs` for the exit, then SIGKILL and wait again. Signals nothing
 * unless the pid runs and `ours` accepts its argument vector.
 */
export async function stopProcess(pid: number, ours: Ownership, graceMs = 10_000): Promise<StopOutcome> {
  if (!isRunning(pid)) return 'not running';
  const argv = readArgv(pid);
  if (argv === undefined || !ours(argv)) return 'not ours';
  if (!signal(pid, 'SIGTERM')) return 'not running';
  if (await waitGone(pid, graceMs)) return 'stopped';
  const again = readArgv(pid);
  if (again === undefined || !ours(again)) return 'stopped';
  signal(pid, 'SIGKILL');
  return (await waitGone(pid, 5_000)) ? 'killed' : 'still running';
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** The last `lines` lines of a log file (for error messages), or a note that it is unreadable. */
export function tailFile(file: string, lines = 15): string {
  try {
    const text = readFileSync(file, 'utf8').trimEnd();
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}
