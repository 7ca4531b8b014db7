/** haproxy.cfg generated for `shale cluster up` (and checked into docker/). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { haproxyConfig } from '../../src/cli/cluster/haproxy-config.js';
import { findExecutable } from '../../src/cli/cluster/processes.js';

const servers = [
  { name: 'node0', host: '127.0.0.1', port: 4001, statusPort: 5001 },
  { name: 'node1', host: '127.0.0.1', port: 4002, statusPort: 5002 },
];

describe('haproxyConfig', () => {
  const text = haproxyConfig({ bind: '127.0.0.1:4000', servers });
  const lines = text.split('\n').map((l) => l.trim());

  it('balances MySQL connections in TCP mode with long idle timeouts', () => {
    const expected = ['mode tcp', 'balance leastconn', 'timeout connect 5s', 'timeout client 8h', 'timeout server 8h', 'bind 127.0.0.1:4000'];
    for (const line of expected) expect(lines).toContain(line);
    expect(lines).toContain('maxconn 4096');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('health-checks every node with GET /health on its status port so a failed one leaves the rotation', () => {
    expect(lines.filter((l) => l.startsWith('server '))).toEqual([
      'server node0 127.0.0.1:4001 check port 5001 inter 1s fall 2 rise 1 on-marked-down shutdown-sessions',
      'server node1 127.0.0.1:4002 check port 5002 inter 1s fall 2 rise 1 on-marked-down shutdown-sessions',
    ]);
    expect(lines).toContain('option httpchk GET /health');
    expect(lines).toContain('http-check expect status 200');
    // A draining node answers 404: no new connections, running ones keep going.
    expect(lines).toContain('http-check disable-on-404');
    expect(lines).toContain('option redispatch 1');
  });

  it('needs no root: no daemon, user, chroot or stats socket', () => {
    for (const word of ['daemon', 'user ', 'group ', 'chroot', 'stats socket', 'resolvers']) {
      expect(lines.some((l) => l.startsWith(word))).toBe(false);
    }
  });

  it('resolves server names at run time when given a nameserver (Docker)', () => {
    const servers1 = [{ name: 'shale1', host: 'shale1', port: 4000, statusPort: 10080 }];
    const docker = haproxyConfig({ bind: '0.0.0.0:4000', servers: servers1, nameserver: '127.0.0.11:53' });
    expect(docker).toContain('resolvers dns\n    nameserver dns1 127.0.0.11:53\n');
    expect(docker).toContain(
      'server shale1 shale1:4000 check port 10080 inter 1s fall 2 rise 1 on-marked-down shutdown-sessions resolvers dns init-addr last,libc,none\n',
    );
  });

  it('refuses an empty backend', () => {
    expect(() => haproxyConfig({ bind: '127.0.0.1:4000', servers: [] })).toThrow(/at least one SQL node/);
  });
});

describe('haproxy -c', () => {
  const haproxy = findExecutable('haproxy');
  it.skipIf(haproxy === undefined)('accepts the generated configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shale-haproxy-'));
    try {
      const file = join(dir, 'haproxy.cfg');
      writeFileSync(file, haproxyConfig({ bind: '127.0.0.1:4000', servers }));
      const out = execFileSync(haproxy!, ['-c', '-f', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(out).toContain('Configuration file is valid');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
