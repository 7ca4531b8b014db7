import { describe, expect, it } from 'vitest';
import { SQL_NODE_V8_FLAGS, workerExecArgv } from '../../src/cli/v8-flags.js';

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
