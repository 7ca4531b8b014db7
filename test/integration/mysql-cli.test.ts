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

      it('runs several statements in one -e and prints --table boxes', async () => {
        const { stdout } = await cli([
          'clidb', '-e', "CREATE TABLE multi (id INT PRIMARY KEY, s VARCHAR(10)); INSERT INTO multi VALUES (1, 'x'), (2, NULL); SELECT * FROM multi ORDER BY id; SELECT COUNT(*) AS n FROM multi",
        ]);
        expect(stdout).toBe('id\ts\n1\tx\n2\tNULL\nn\n2\n');
        const table = await cli(['clidb', '--table', '-e', 'SELECT id, s FROM multi ORDER BY id']);
        expect(table.stdout).toBe(
          ['+----+------+', '| id | s    |', '+----+------+', '|  1 | x    |', '|  2 | NULL |', '+----+------+', ''].join('\n'),
        );
        const vertical = await cli(['clidb', '-E', '-e', 'SELECT id, s FROM multi WHERE id = 1']);
        expect(vertical.stdout).toContain('id: 1\n s: x');
      });

      it('answers DESCRIBE, SHOW INDEX and information_schema queries in batch mode', async () => {
        const desc = await cli(['clidb', '-e', 'DESC t']);
        expect(desc.stdout).toBe('Field\tType\tNull\tKey\tDefault\tExtra\nid\tint\tNO\tPRI\tNULL\t\nname\tvarchar(20)\tYES\t\tNULL\t\n');
        const idx = await cli(['clidb', '-N', '-e', 'SHOW INDEX FROM t']);
        expect(idx.stdout.split('\t').slice(0, 5)).toEqual(['t', '0', 'PRIMARY', '1', 'id']);
        const tables = await cli(['-N', '-e', "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'clidb' ORDER BY 1"]);
        expect(tables.stdout.split('\n')).toContain('t');
        const cols = await cli(['-N', '-e', "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'clidb' AND TABLE_NAME = 't'"]);
        expect(cols.stdout).toBe('2\n');
      });

      it('shows an account only the tables it holds privileges on (SHOW TABLES, information_schema)', async () => {
        await cli(['-e', "CREATE TABLE clidb.hidden (id INT PRIMARY KEY); CREATE USER cliuser IDENTIFIED BY 'pw'; GRANT SELECT ON clidb.t TO cliuser"]);
        const as = (sql: string): Promise<{ stdout: string }> =>
          run('mysql', ['-h127.0.0.1', `-P${node.port}`, '-ucliuser', '-ppw', '-N', '-e', sql]);
        expect((await as('SHOW TABLES FROM clidb')).stdout).toBe('t\n');
        const names = await as("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'clidb'");
        expect(names.stdout).toBe('t\n');
        const cols = await as("SELECT DISTINCT TABLE_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'clidb'");
        expect(cols.stdout).toBe('t\n');
        expect((await cli(['-N', '-e', "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'clidb'"])).stdout).not.toBe('1\n');
      });

      it('works as an interactive session (auto-rehash, use, status)', async () => {
        const input = [
          'show databases;',
          'use clidb',
          'show tables;',
          "insert into t values (3, 'three');",
          'select count(*) from t;',
          'desc t;',
          'show index from t;',
          "select table_name from information_schema.tables where table_schema = database();",
          'status',
          '\\s',
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
        expect(out).toMatch(/\|\s+name\s+\|\s+varchar\(20\)\s+\|\s+YES/);
        expect(out).toMatch(/\|\s+t\s+\|\s+0\s+\|\s+PRIMARY/);
        // The welcome banner, `status` and `\s` each print it.
        expect(out.match(/Server version:/g)?.length).toBe(3);
      }, 30_000);
    });
  });
}
