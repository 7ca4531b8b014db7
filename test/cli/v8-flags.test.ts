import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeArgs } from '../../src/cli/cluster/launcher.js';
import { planCluster } from '../../src/cli/cluster/topology.js';
import { SQL_NODE_V8_FLAGS, workerExecArgv } from '../../src/cli/v8-flags.js';
import { REPO_ROOT } from '../helpers/node.js';

describe('workerExecArgv', () => {
  it('gives the workers a 32 MiB semi-space by default, after the primary\'s own flags', () => {
    expect(SQL_NODE_V8_FLAGS).toEqual(['--max-semi-space-size=32']);
    expect(workerExecArgv([], undefined)).toEqual(['--max-semi-space-size=32']);
    expect(workerExecArgv(['--enable-source-maps'], '', ['--require', '/x/pin-worker.cjs'])).toEqual([
      '--enable-source-maps',
      '--max-semi-space-size=32',
      '--require',
      '/x/pin-worker.cjs',
    ]);
  });

  it('leaves the semi-space to a command line or NODE_OPTIONS that sets it (either spelling)', () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], undefined)).toEqual(['--max-semi-space-size=8']);
    expect(workerExecArgv(['--max_semi_space_size=64'], undefined)).toEqual(['--max_semi_space_size=64']);
    expect(workerExecArgv([], '--inspect  --max-semi-space-size=4')).toEqual([]);
    expect(workerExecArgv([], '--max-old-space-size=4096')).toEqual(['--max-semi-space-size=32']);
  });
});

describe('SQL_NODE_V8_FLAGS', () => {
  it('are on the command lines that start SQL nodes outside this process (the Dockerfile: docker-files.test.ts)', () => {
    const flags = SQL_NODE_V8_FLAGS.join(' ');
    const shebang = readFileSync(join(REPO_ROOT, 'bin/shale.js'), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${flags}`);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['serve']).toBe(`node ${flags} bin/shale.js serve`);
  });

  it('start every node of shale cluster up', () => {
    const layout = planCluster({ dir: '/tmp/c', etcdMembers: 3, nodes: 2, port: 4000, nodeBasePort: 4001, etcdBasePort: 2379, workers: 1, logLevel: 'info' });
    for (const n of layout.nodes) expect(nodeArgs(layout, n).slice(0, SQL_NODE_V8_FLAGS.length + 2)).toEqual([...SQL_NODE_V8_FLAGS, expect.stringMatching(/bin[/\\]shale\.js$/), 'serve']);
  });
});
