/**
 * A private, size-limited tmpfs for disk-full tests: `mount -t tmpfs -o size=…` needs root (or
 * CAP_SYS_ADMIN); where that is not allowed the tests that need it are skipped. unmount() is
 * idempotent and removes the mount point.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  readonly dir: string;
  unmount(): void;
}

function run(cmd: string, args: readonly string[]): boolean {
  try {
    execFileSync(cmd, [...args], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Mounts a tmpfs of `sizeMiB` (read-only if asked); undefined when mounting is not allowed here. */
export function mountTmpfs(sizeMiB: number, readOnly = false): Tmpfs | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'shale-tmpfs-'));
  const options = `size=${sizeMiB}m,mode=0755${readOnly ? ',ro' : ''}`;
  if (!run('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir])) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  let mounted = true;
  return {
    dir,
    unmount() {
      if (mounted) run('umount', [dir]);
      mounted = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether this process may mount a tmpfs (probes once with a 1 MiB mount). */
export function canMountTmpfs(): boolean {
  const probe = mountTmpfs(1);
  probe?.unmount();
  return probe !== undefined;
}
