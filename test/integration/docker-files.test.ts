/**
 * docker/ checked without a Docker engine: compose.yaml parses (a block-style YAML subset, below),
 * every depends_on names a service, the etcd commands are exactly etcdArgs(), the SQL nodes use
 * the etcd members, haproxy.cfg is haproxyConfig() for exactly the SQL services, and the
 * Dockerfile copies paths that exist and runs bin/shale.js.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ETCD_LIMIT_FLAGS, etcdArgs, type EtcdClusterSpec } from '../../src/cli/cluster/etcd-args.js';
import { haproxyConfig } from '../../src/cli/cluster/haproxy-config.js';
import { findExecutable } from '../../src/cli/cluster/processes.js';
import { SQL_NODE_V8_FLAGS } from '../../src/cli/v8-flags.js';
import { REPO_ROOT } from '../helpers/node.js';

const DOCKER = join(REPO_ROOT, 'docker');

type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  readonly indent: number;
  readonly text: string;
  readonly no: number;
}

/**
 * Parses the YAML subset compose.yaml is written in: block mappings and sequences by
 * indentation, plain or quoted scalars (kept as strings), comments. Anything else (flow
 * collections, anchors, multi-line scalars, tabs) is an error, so the file stays checkable.
 */
function parseYamlSubset(source: string): Yaml {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: tab`);
    const text = raw.replace(/(^|\s)#.*$/, '').trimEnd();
    if (text.trim() !== '') lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), no: i + 1 });
  });
  let pos = 0;
  const scalar = (s: string, no: number): string | null => {
    if (s === '') return null;
    const quoted = /^"(.*)"$/.exec(s) ?? /^'(.*)'$/.exec(s);
    if (quoted) return quoted[1]!;
    if (/^[[{&*!|>]/.test(s)) throw new Error(`line ${no}: unsupported YAML: ${s}`);
    return s;
  };
  const block = (indent: number): Yaml => {
    const first = lines[pos]!;
    if (first.text.startsWith('- ') || first.text === '-') {
      const seq: Yaml[] = [];
      while (pos < lines.length && lines[pos]!.indent === indent && lines[pos]!.text.startsWith('- ')) {
        const item = lines[pos]!;
        if (/^- [^"']*:(\s|$)/.test(item.text)) throw new Error(`line ${item.no}: mappings in sequences are not supported`);
        seq.push(scalar(item.text.slice(2).trim(), item.no));
        pos++;
      }
      return seq;
    }
    const map: { [key: string]: Yaml } = {};
    while (pos < lines.length && lines[pos]!.indent === indent) {
      const line = lines[pos]!;
      const m = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(line.text);
      if (m === null) throw new Error(`line ${line.no}: expected "key: value", got ${line.text}`);
      const key = m[1]!;
      if (key in map) throw new Error(`line ${line.no}: duplicate key ${key}`);
      pos++;
      const next = lines[pos];
      if (m[2] === undefined && next !== undefined && next.indent > indent) map[key] = block(next.indent);
      else map[key] = scalar(m[2] ?? '', line.no);
    }
    if (pos < lines.length && lines[pos]!.indent > indent) throw new Error(`line ${lines[pos]!.no}: bad indentation`);
    return map;
  };
  const doc = block(0);
  if (pos !== lines.length) throw new Error(`line ${lines[pos]!.no}: bad indentation`);
  return doc;
}

function obj(v: Yaml | undefined, what: string): { [key: string]: Yaml } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what} should be a mapping`);
  return v;
}

function strings(v: Yaml | undefined, what: string): string[] {
  if (!Array.isArray(v) || !v.every((s): s is string => typeof s === 'string')) throw new Error(`${what} should be a list of strings`);
  return v;
}

const compose = obj(parseYamlSubset(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8')), 'compose.yaml');
const services = obj(compose['services'], 'services');
const names = Object.keys(services);
const service = (name: string): { [key: string]: Yaml } => obj(services[name], `services.${name}`);
const etcdServices = names.filter((n) => /^etcd\d+$/.test(n));
const shaleServices = names.filter((n) => /^shale\d+$/.test(n));

describe('YAML subset parser', () => {
  it('reads mappings, sequences, quotes and comments, and rejects what it does not support', () => {
    expect(parseYamlSubset('a: 1 # c\nb:\n  - "x"\n  - y\nc:\n  d: \'e\'\nf:\n')).toEqual({ a: '1', b: ['x', 'y'], c: { d: 'e' }, f: null });
    expect(() => parseYamlSubset('a: [1, 2]')).toThrow(/unsupported/);
    expect(() => parseYamlSubset('a: 1\na: 2')).toThrow(/duplicate key a/);
    expect(() => parseYamlSubset('a:\n  - b: c')).toThrow(/not supported/);
  });
});

describe('docker/compose.yaml', () => {
  it('has 3 etcd members, 3 SQL nodes and HAProxy', () => {
    expect(etcdServices).toEqual(['etcd1', 'etcd2', 'etcd3']);
    expect(shaleServices).toEqual(['shale1', 'shale2', 'shale3']);
    expect(names).toContain('haproxy');
  });

  it('depends only on services that exist', () => {
    for (const name of names) {
      const deps = service(name)['depends_on'];
      if (deps === undefined) continue;
      const list = Array.isArray(deps) ? strings(deps, `${name}.depends_on`) : Object.keys(obj(deps, `${name}.depends_on`));
      for (const dep of list) {
        expect(names, `${name} depends on ${dep}`).toContain(dep);
        expect(dep).not.toBe(name);
      }
    }
  });

  it('starts every etcd member with exactly etcdArgs() (limits included)', () => {
    const spec: EtcdClusterSpec = {
      token: 'shaledb-compose',
      members: etcdServices.map((name) => ({
        name,
        dataDir: '/etcd-data',
        listenHost: '0.0.0.0',
        advertiseHost: name,
        clientPort: 2379,
        peerPort: 2380,
      })),
    };
    spec.members.forEach((member) => {
      const svc = service(member.name);
      expect(svc['image']).toBe('quay.io/coreos/etcd:v3.4.23');
      const command = strings(svc['command'], `${member.name}.command`);
      expect(command).toEqual(['/usr/local/bin/etcd', ...etcdArgs(member, spec)]);
      for (const flag of ETCD_LIMIT_FLAGS) expect(command).toContain(flag);
      expect(strings(svc['volumes'], 'volumes')).toEqual([`${member.name}-data:/etcd-data`]);
    });
    expect(Object.keys(obj(compose['volumes'], 'volumes'))).toEqual(etcdServices.map((n) => `${n}-data`));
  });

  it('runs the SQL nodes from the Dockerfile on the etcd members', () => {
    for (const name of shaleServices) {
      const svc = service(name);
      const build = obj(svc['build'], `${name}.build`);
      expect(existsSync(join(DOCKER, build['context'] as string, build['dockerfile'] as string))).toBe(true);
      const command = strings(svc['command'], `${name}.command`);
      expect(command.slice(command.indexOf('--store'), command.indexOf('--store') + 2)).toEqual([
        '--store',
        `etcd://${etcdServices.map((e) => `${e}:2379`).join(',')}`,
      ]);
      expect(command.slice(command.indexOf('--port'), command.indexOf('--port') + 2)).toEqual(['--port', '4000']);
      // haproxy.cfg checks /health on this port.
      expect(command.slice(command.indexOf('--status-port'), command.indexOf('--status-port') + 2)).toEqual(['--status-port', '10080']);
      expect(Object.keys(obj(svc['depends_on'], `${name}.depends_on`))).toEqual(etcdServices);
    }
  });

  it('publishes HAProxy with docker/haproxy.cfg mounted, after the SQL nodes', () => {
    const svc = service('haproxy');
    expect(svc['image']).toBe('haproxy:2.6');
    const [mount] = strings(svc['volumes'], 'haproxy.volumes');
    const [src, dest] = mount!.split(':');
    expect(existsSync(join(DOCKER, src!))).toBe(true);
    expect(dest).toBe('/usr/local/etc/haproxy/haproxy.cfg');
    expect(strings(svc['ports'], 'haproxy.ports')).toEqual(['127.0.0.1:4000:4000']);
    expect(strings(svc['depends_on'], 'haproxy.depends_on')).toEqual(shaleServices);
  });
});

describe('docker/haproxy.cfg', () => {
  const text = readFileSync(join(DOCKER, 'haproxy.cfg'), 'utf8');

  it('balances over exactly the SQL services, on their port', () => {
    const servers = [...text.matchAll(/^\s*server (\S+) (\S+):(\d+) /gm)].map((m) => [m[1], m[2], m[3]]);
    expect(servers).toEqual(shaleServices.map((s) => [s, s, '4000']));
  });

  it('is what haproxyConfig() generates (regenerate it rather than editing by hand)', () => {
    const expected = haproxyConfig({
      bind: '0.0.0.0:4000',
      servers: shaleServices.map((s) => ({ name: s, host: s, port: 4000, statusPort: 10080 })),
      nameserver: '127.0.0.11:53',
      origin: 'docker/haproxy.cfg for docker/compose.yaml (haproxyConfig() output; test/integration/docker-files.test.ts checks it).',
    });
    expect(text).toBe(expected);
  });

  const haproxy = findExecutable('haproxy');
  it.skipIf(haproxy === undefined)('passes haproxy -c', () => {
    // Outside Docker the service names do not resolve; init-addr none lets the check pass anyway.
    const out = execFileSync(haproxy!, ['-c', '-f', join(DOCKER, 'haproxy.cfg')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('Configuration file is valid');
  });
});

describe('docker/Dockerfile', () => {
  const text = readFileSync(join(DOCKER, 'Dockerfile'), 'utf8');
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

  it('builds on node:20-bookworm-slim with npm ci and npm run build', () => {
    expect(instructions.filter((l) => l.startsWith('FROM ')).every((l) => l.startsWith('FROM node:20-bookworm-slim'))).toBe(true);
    expect(text).toContain('npm ci');
    expect(text).toContain('npm run build');
  });

  it('copies only paths that exist in the repository', () => {
    for (const line of instructions.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
      const parts = line.split(/\s+/).slice(1, -1);
      for (const src of parts) expect(existsSync(join(REPO_ROOT, src)), `${line}: ${src}`).toBe(true);
    }
  });

  it('serves on every interface through bin/shale.js, with the V8 flags of a SQL node', () => {
    const entry = instructions.find((l) => l.startsWith('ENTRYPOINT '));
    const argv: unknown = JSON.parse(entry!.slice('ENTRYPOINT '.length));
    expect(argv).toEqual(['node', ...SQL_NODE_V8_FLAGS, 'bin/shale.js', 'serve', '--host', '0.0.0.0']);
    expect(existsSync(join(REPO_ROOT, 'bin/shale.js'))).toBe(true);
  });
});
