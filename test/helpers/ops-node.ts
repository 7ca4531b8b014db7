/**
 * `shale serve` as a child process for the operations tests: the MySQL port and the status port
 * (both picked free: `--port 0 --status-port 0`), every log line, and waiting for log events.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { REPO_ROOT } from './node.js';

export type LogLine = Record<string, unknown>;

export interface OpsNode {
  readonly port: number;
  readonly statusPort: number;
  readonly child: ChildProcess;
  /** Every JSON log line so far. */
  readonly logs: LogLine[];
  url(path: string): string;
  connect(database?: string): Promise<mysql.Connection>;
  /** Resolves with the first log line (past or future) that `pred` accepts. */
  waitForLog(pred: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
  /** SIGKILL (if still running) and wait for the exit. */
  kill(): Promise<void>;
}

/** Starts `shale serve --port 0 --status-port 0 --log-level info <args>`. */
export async function spawnOpsNode(args: readonly string[]): Promise<OpsNode> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin/shale.js'), 'serve', '--port', '0', '--status-port', '0', '--log-level', 'info', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const logs: LogLine[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ text: line });
      }
    }
    for (const w of [...waiters]) w();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog = (pred: (l: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const hit = logs.find(pred);
        if (hit === undefined) return;
        done();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`log line not seen within ${timeoutMs} ms; logs:\n${logs.map((l) => JSON.stringify(l)).join('\n')}`));
      }, timeoutMs);
      const onExit = (): void => {
        setTimeout(() => {
          if (!waiters.has(check)) return;
          done();
          reject(new Error(`shale exited; logs:\n${logs.map((l) => JSON.stringify(l)).join('\n')}`));
        }, 100);
      };
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
        child.off('exit', onExit);
      };
      waiters.add(check);
      child.once('exit', onExit);
      check();
    });
  const ready = await waitForLog((l) => l['event'] === 'listening' && typeof l['port'] === 'number');
  const status = await waitForLog((l) => l['event'] === 'status-listening');
  const port = ready['port'] as number;
  const statusPort = status['port'] as number;
  return {
    port,
    statusPort,
    child,
    logs,
    url: (path) => `http://127.0.0.1:${statusPort}${path}`,
    connect: (database) => mysql.createConnection({ host: '127.0.0.1', port, user: 'root', ...(database ? { database } : {}) }),
    waitForLog,
    exited: () => exit,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
}

/** GET the status server: HTTP status and body text. */
export async function getStatus(node: OpsNode, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(node.url(path));
  return { status: res.status, body: await res.text() };
}
