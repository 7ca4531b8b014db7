import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** MySQL clients gate features on the leading version, so ours always starts with 8.0.11. */
const MYSQL_VERSION = '8.0.11';

let cached: string | undefined;

/** `8.0.11-ShaleDB-<package version>`, read once from the nearest `shaledb` package.json. */
export function serverVersion(): string {
  cached ??= `${MYSQL_VERSION}-ShaleDB-${packageVersion()}`;
  return cached;
}

function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const version = readVersion(join(dir, 'package.json'));
    if (version !== undefined) return version;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return '0.0.0';
}

function readVersion(path: string): string | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof pkg !== 'object' || pkg === null) return undefined;
    const { name, version } = pkg as { name?: unknown; version?: unknown };
    return name === 'shaledb' && typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
