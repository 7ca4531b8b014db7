/**
 * A ShaleDB server (spawned bin/shale.js) whose data directory fills up: the client gets 1021
 * with the file and OS error in the message, the log gets one kv_background_error line naming
 * it, committed rows stay intact and the failed statement is not applied, writes work again once
 * space is freed, and a restart finds everything consistent. Start-up on an unusable data
 * directory (a file, a read-only file system, a 0555 directory for a non-root user) exits with
 * code 1 and says why. The tmpfs parts need root (mount) and are skipped otherwise.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, removeDir, spawnNode, tempDir, type SpawnedNode } from '../helpers/node.js';
import { canMountTmpfs, mountTmpfs } from '../kv/tmpfs.js';

const mayMount = canMountTmpfs();
const NOBODY = 65534;

/** `shale serve` on `dataDir` expected to fail: its exit code and stderr. */
function serveFails(dataDir: string, uid?: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(uid !== undefined ? { uid, gid: uid } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

async function count(c: mysql.Connection): Promise<number> {
  const [rows] = await c.query('SELECT COUNT(*) AS n FROM t');
  return Number((rows as Array<{ n: number | string }>)[0]?.n);
}

describe('full disk under a running server', () => {
  it.skipIf(!mayMount)('answers 1021, logs one line, keeps committed rows and resumes when space returns', async () => {
    const fs = mountTmpfs(12);
    if (fs === undefined) throw new Error('tmpfs mount failed');
    const dataDir = join(fs.dir, 'data');
    const ballast = join(fs.dir, 'ballast');
    let node: SpawnedNode | undefined;
    try {
      node = await spawnNode(dataDir);
      let log = '';
      node.child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
      await c.query('CREATE DATABASE full_db');
      await c.query('USE full_db');
      await c.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(1000) NOT NULL, KEY k_k (k))');
      writeFileSync(ballast, new Uint8Array(3 * 1024 * 1024));
      let acked = 0;
      let failure: { errno?: number; message?: string } | undefined;
      const pad = 'p'.repeat(900);
      for (let batch = 0; failure === undefined && batch < 5000; batch++) {
        const rows = Array.from({ length: 20 }, (_, j) => `(${batch * 20 + j}, ${j}, '${pad}')`).join(', ');
        await c.query(`INSERT INTO t VALUES ${rows}`).then(
          () => (acked += 20),
          (err: unknown) => (failure = err as { errno?: number; message?: string }),
        );
      }
      expect(failure?.errno, failure?.message).toBe(1021);
      // The file that hit the full disk: LMDB's data file or the redo log.
      expect(failure?.message).toMatch(/^Disk full \(.*\/data\/(data\.mdb|redo\.\d+): .*; the transaction was rolled back\); waiting for someone to free some space\.\.\.$/);
      expect(await count(c)).toBe(acked);
      await c.query('ADMIN CHECK TABLE t');
      const lines = log.split('\n').filter((l) => l.includes('"event":"kv_background_error"'));
      expect(lines, log).toHaveLength(1);
      expect(lines[0]).toMatch(/"what":"commit failed, writes to the store fail until the cause is fixed","err":"Disk full \(/);

      rmSync(ballast);
      await c.query(`INSERT INTO t VALUES (${acked}, 1, 'after'), (${acked + 1}, 2, 'after')`);
      expect(await count(c)).toBe(acked + 2);
      await c.end();

      await node.stop();
      node = await spawnNode(dataDir);
      const again = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', database: 'full_db' });
      expect(await count(again)).toBe(acked + 2);
      await again.query('ADMIN CHECK TABLE t');
      await again.end();
    } finally {
      await node?.stop();
      fs.unmount();
    }
  }, 120_000);
});

describe('start-up on an unusable data directory', () => {
  it('exits with code 1 and a clear message when the data directory is a file', async () => {
    const base = tempDir('notdir');
    try {
      const file = join(base, 'data');
      writeFileSync(file, 'x');
      const r = await serveFails(file);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cannot open the embedded store in ${file}`);
      expect(r.stderr).toContain('the data directory path is not a directory');
    } finally {
      removeDir(base);
    }
  });

  it.skipIf(!mayMount)('exits with code 1 on a read-only file system', async () => {
    const fs = mountTmpfs(1, true);
    if (fs === undefined) throw new Error('tmpfs mount failed');
    try {
      const r = await serveFails(fs.dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot open the embedded store in .*: Read-only file system.*; the data directory is on a read-only file system/);
    } finally {
      fs.unmount();
    }
  });

  it('exits with code 1 on a directory the user cannot write (mode 0555)', async (ctx) => {
    const asRoot = process.getuid?.() === 0;
    const base = tempDir('readonly');
    try {
      const dir = join(base, 'data');
      mkdirSync(dir);
      chmodSync(base, 0o755);
      // Root bypasses file modes: run the server as nobody then (it owns the directory, mode 0555).
      if (asRoot) chownSync(dir, NOBODY, NOBODY);
      chmodSync(dir, 0o555);
      const r = await serveFails(dir, asRoot ? NOBODY : undefined);
      if (asRoot && /EACCES|permission denied/i.test(r.stderr) && !r.stderr.includes('cannot open the embedded store')) {
        ctx.skip(); // nobody cannot read the repository here
      }
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/cannot open the embedded store in .*data: Permission denied.*; the data directory is not writable by this user: fix its owner or mode/);
    } finally {
      removeDir(base);
    }
  });
});
