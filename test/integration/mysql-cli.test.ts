/**
 * The mysql (MariaDB) command-line client, in batch mode (-e) and in an interactive session on a
 * pseudo-terminal (so it sends its connect-time statements and COM_FIELD_LIST for auto-rehash).
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, removeDir, startTestNode, type TestNode } from '../helpers/node.js';

for (const backend of backends()) {
  describe(`on the ${backend} store`, () => {
    const run = promisify(execFile);
    let node: TestNode;

    function cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
      return run('mysql', ['-h127.0.0.1', `-P${node.port}`, '-uroot', ...args]);
    }

    beforeAll(async () => {
      node = await startTestNode(backend);
    });

    afterAll(async () => {
      await node?.stop();
      if (node) removeDir(node.dataDir);
    });

    describe('mysql CLI', () => {
      it('runs statements in batch mode', async () => {
        await cli(['-e', 'CREATE DATABASE clidb; CREATE TABLE clidb.t (id INT PRIMARY KEY, name VARCHAR(20))']);
        await cli(['clidb', '-e', "INSERT INTO t VALUES (1, 'one'), (2, 'two')"]);
        const { stdout } = await cli(['clidb', '-e', 'SELECT id, name FROM t ORDER BY id']);
        expect(stdout).toBe('id\tname\n1\tone\n2\ttwo\n');
        const dbs = await cli(['-e', 'SHOW DATABASES']);
        expect(dbs.stdout.split('\n')).toContain('clidb');
      });

      it('reports errors with MySQL codes', async () => {
        const err = await cli(['-e', 'SELECT * FROM nodb.nope']).then(
          () => undefined,
          (e: { stderr: string }) => e.stderr,
        );
        expect(err).toMatch(/ERROR 1146 \(42S02\)/);
      });

      it('works as an interactive session (auto-rehash, use, status)', async () => {
        const input = [
          'show databases;',
          'use clidb',
          'show tables;',
          "insert into t values (3, 'three');",
          'select count(*) from t;',
          'status',
          'exit',
          '',
        ].join('\n');
        const out = await new Promise<string>((resolve, reject) => {
          const child = spawn('script', ['-qec', `mysql -h127.0.0.1 -P${node.port} -uroot clidb`, '/dev/null'], {
            stdio: ['pipe', 'pipe', 'pipe'],
          });
          let buf = '';
          child.stdout.on('data', (d: Buffer) => (buf += d.toString()));
          child.stderr.on('data', (d: Buffer) => (buf += d.toString()));
          child.on('error', reject);
          child.on('exit', () => resolve(buf));
          const lines = input.split('\n');
          let i = 0;
          const feed = (): void => {
            if (i >= lines.length) {
              child.stdin.end();
              return;
            }
            child.stdin.write(`${lines[i++]}\n`);
            setTimeout(feed, 150);
          };
          setTimeout(feed, 500);
        });
        expect(out).not.toMatch(/ERROR \d+/);
        expect(out).toContain('Database changed');
        expect(out).toMatch(/\|\s+3\s+\|/);
        expect(out).toContain('Server version:');
        expect(out).toContain('8.0.11-ShaleDB');
      }, 30_000);
    });
  });
}
