/**
 * Stopping recorded processes by pid: only a pid that still runs the program we started is
 * signalled; SIGTERM first, SIGKILL after the grace period.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { etcdOwnership, haproxyOwnership, nodeOwnership } from '../../src/cli/cluster/ownership.js';
import { isRunning, procState, readArgv, stopProcess } from '../../src/cli/cluster/processes.js';

/** A child that idles (optionally ignoring SIGTERM), returned once its handlers are installed. */
async function sleeper(ignoreTerm: boolean): Promise<number> {
  const handler = ignoreTerm ? "process.on('SIGTERM', () => {});" : '';
  const code = `${handler} setInterval(() => {}, 1000); process.stdout.write('ready');`;
  const child = spawn(process.execPath, ['-e', code, 'shale-test-sleeper'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((r) => child.stdout.once('data', r));
  expect(readArgv(child.pid!)).toContain('shale-test-sleeper');
  return child.pid!;
}

describe('ownership', () => {
  it('recognises each kind of process by its distinguishing argument', () => {
    expect(etcdOwnership('/c/etcd-0')(['/usr/bin/etcd', '--name=etcd-0', '--data-dir=/c/etcd-0'])).toBe(true);
    expect(etcdOwnership('/c/etcd-0')(['/usr/bin/etcd', '--data-dir=/other/etcd-0'])).toBe(false);
    expect(etcdOwnership('/c/etcd-0')(['/usr/bin/vim', '--data-dir=/c/etcd-0'])).toBe(false);
    expect(nodeOwnership(4001)(['/usr/bin/node', '/r/bin/shale.js', 'serve', '--port', '4001'])).toBe(true);
    expect(nodeOwnership(4001)(['/usr/bin/node', '/r/bin/shale.js', 'serve', '--port', '4002'])).toBe(false);
    expect(nodeOwnership(4001)(['/usr/bin/node', '/r/other.js', 'serve', '--port', '4001'])).toBe(false);
    expect(haproxyOwnership('/c/haproxy.cfg')(['/usr/sbin/haproxy', '-f', '/c/haproxy.cfg'])).toBe(true);
    expect(haproxyOwnership('/c/haproxy.cfg')(['/usr/sbin/haproxy', '-f', '/d/haproxy.cfg'])).toBe(false);
  });
});

describe('stopProcess', () => {
  const mine = (argv: readonly string[]): boolean => argv.includes('shale-test-sleeper');

  it('stops a process with SIGTERM', async () => {
    const pid = await sleeper(false);
    expect(await stopProcess(pid, mine, 5_000)).toBe('stopped');
    expect(isRunning(pid)).toBe(false);
  });

  it('kills a process that ignores SIGTERM after the grace period', async () => {
    const pid = await sleeper(true);
    expect(await stopProcess(pid, mine, 300)).toBe('killed');
    expect(procState(pid)).not.toBe('running');
  });

  it('never signals a pid that runs something else', async () => {
    const pid = await sleeper(false);
    expect(await stopProcess(pid, () => false, 100)).toBe('not ours');
    expect(isRunning(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });

  it('reports a pid that no longer exists', async () => {
    expect(await stopProcess(2 ** 31 - 2, mine)).toBe('not running');
  });
});
