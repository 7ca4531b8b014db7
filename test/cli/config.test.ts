import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { applyConfigHook, configOption, logConfigReport } from '../../src/cli/config-cli.js';
import { ConfigError, parseConfigText, readConfigFile } from '../../src/cli/config-file.js';
import { applyConfigLayers, envName, settingsOf, type ConfigReport } from '../../src/cli/config-layers.js';
import { buildProgram } from '../../src/cli/program.js';

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}

interface Run {
  readonly opts: Record<string, unknown>;
  readonly sources: Record<string, string | undefined>;
  readonly report: ConfigReport;
}

/** A serve-like command; `files` are config files by path (TOML, or JSON for *.json). */
async function run(args: string[], env: Record<string, string> = {}, files: Record<string, string> = {}): Promise<Run> {
  let report: ConfigReport | undefined;
  const cmd = new Command('serve')
    .exitOverride()
    .addOption(configOption())
    .option('--host <addr>', 'address', '127.0.0.1')
    .option('--port <n>', 'port', parsePort, 4000)
    .option('--data-dir <dir>', 'data directory', './shale-data')
    .option('--store <url>', 'store URL')
    .addOption(new Option('--log-level <level>', 'log level').choices(['info', 'debug']).default('info'))
    .option('--initial-password <pw>', 'password', (v: string) => {
      if (v.length < 3) throw new InvalidArgumentError(`"${v}" is too short`);
      return v;
    })
    .option('--require-secure-transport', 'TLS only')
    .option('--no-progress', 'no progress')
    .hook('preAction', (c) => {
      report = applyConfigLayers(c, {
        env,
        readFile: (path) => {
          const text = files[path];
          if (text === undefined) throw new ConfigError(`config file ${path}: ENOENT`);
          return { path, entries: parseConfigText(text, path.endsWith('.json') ? 'json' : 'toml', path), readableByOthers: false };
        },
      });
    })
    .action(() => undefined);
  await cmd.parseAsync(args, { from: 'user' });
  const opts = cmd.opts();
  const sources = Object.fromEntries(Object.keys(opts).map((k) => [k, cmd.getOptionValueSource(k)]));
  if (report === undefined) throw new Error('hook did not run');
  return { opts, sources, report };
}

const fails = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );

describe('config precedence: flag > SHALE_* > config file > default', () => {
  const file = { 'shale.toml': 'port = 4001\ndata-dir = "/srv/file"\nlog-level = "debug"\n' };

  it('each layer wins over the ones below it', async () => {
    const env = { SHALE_PORT: '4002' };
    expect((await run(['--config', 'shale.toml', '--port', '4003'], env, file)).opts['port']).toBe(4003);
    const all = await run(['--config', 'shale.toml', '--port', '4003'], env, file);
    expect(all.sources).toMatchObject({ port: 'cli', dataDir: 'config', logLevel: 'config', host: 'default', config: 'cli' });
    const envWins = await run(['--config', 'shale.toml'], env, file);
    expect(envWins.opts).toMatchObject({ port: 4002, dataDir: '/srv/file', logLevel: 'debug', host: '127.0.0.1' });
    expect(envWins.sources['port']).toBe('env');
    expect(envWins.report).toMatchObject({ file: 'shale.toml', fromEnv: ['port ← SHALE_PORT'], fromFile: ['data-dir', 'log-level'], overridden: ['port'] });
    const fileWins = await run(['--config', 'shale.toml'], {}, file);
    expect(fileWins.opts['port']).toBe(4001);
    expect(fileWins.sources['port']).toBe('config');
    const defaults = await run([], {}, file);
    expect(defaults.opts).toMatchObject({ port: 4000, dataDir: './shale-data' });
    expect(defaults.report).toEqual({ fromEnv: [], fromFile: [], overridden: [], exposedSecrets: [] });
  });

  it('SHALE_CONFIG names the file; --config wins over it', async () => {
    const files = { ...file, 'other.toml': 'port = 4444\n' };
    expect((await run([], { SHALE_CONFIG: 'shale.toml' }, files)).opts['port']).toBe(4001);
    expect((await run(['--config', 'other.toml'], { SHALE_CONFIG: 'shale.toml' }, files)).opts['port']).toBe(4444);
  });

  it('maps every option to SHALE_<UPPER_SNAKE>; an empty variable is unset', async () => {
    const r = await run([], { SHALE_DATA_DIR: '/srv/env', SHALE_LOG_LEVEL: 'debug', SHALE_STORE: '', SHALE_HOST: '0.0.0.0' });
    expect(r.opts).toMatchObject({ dataDir: '/srv/env', logLevel: 'debug', host: '0.0.0.0' });
    expect(r.opts['store']).toBeUndefined();
    expect(envName('require-secure-transport')).toBe('SHALE_REQUIRE_SECURE_TRANSPORT');
  });

  it('switches take true/false words from the environment and booleans from the file', async () => {
    expect((await run([], { SHALE_REQUIRE_SECURE_TRANSPORT: 'yes', SHALE_PROGRESS: 'off' })).opts).toMatchObject({
      requireSecureTransport: true,
      progress: false,
    });
    const f = { 'b.toml': 'require_secure_transport = true\nprogress = false\n' };
    expect((await run(['--config', 'b.toml'], {}, f)).opts).toMatchObject({ requireSecureTransport: true, progress: false });
    expect(await fails(run([], { SHALE_PROGRESS: 'maybe' }))).toBe('environment variable SHALE_PROGRESS: expected true or false (also 1/0, yes/no, on/off)');
    expect(await fails(run(['--config', 'b.toml'], {}, { 'b.toml': 'progress = "no"' }))).toBe('config file b.toml: key "progress": expected true or false');
  });

  it('keeps SHALE_ROOT_PASSWORD as another name of SHALE_INITIAL_PASSWORD, above the file', async () => {
    const f = { 'p.toml': 'initial-password = "from-file"\n' };
    const r = await run(['--config', 'p.toml'], { SHALE_ROOT_PASSWORD: 'from-root-env' }, f);
    expect(r.opts['initialPassword']).toBe('from-root-env');
    expect(r.report.fromEnv).toEqual(['initial-password ← SHALE_ROOT_PASSWORD']);
    const both = await run([], { SHALE_ROOT_PASSWORD: 'old', SHALE_INITIAL_PASSWORD: 'new' });
    expect(both.opts['initialPassword']).toBe('new');
  });
});

describe('config validation', () => {
  it('checks values with the flag parsers and names the key and the file', async () => {
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'port = 70000' }))).toBe('config file c.toml: key "port": must be a port number 0-65535');
    expect(await fails(run(['--config', 'c.json'], {}, { 'c.json': '{"log_level": "loud"}' }))).toBe(
      'config file c.json: key "log_level": Allowed choices are info, debug.',
    );
    expect(await fails(run([], { SHALE_PORT: 'abc' }))).toBe('environment variable SHALE_PORT: must be a port number 0-65535');
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'port = true' }))).toBe('config file c.toml: key "port": expected a value, not true');
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'port = [1, 2]' }))).toBe('config file c.toml: key "port": expected one value, not a list');
  });

  it('checks a file value even when a flag overrides it', async () => {
    expect(await fails(run(['--config', 'c.toml', '--port', '5'], {}, { 'c.toml': 'port = -1' }))).toContain('key "port"');
  });

  it('never puts a secret value in a message', async () => {
    const msg = await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'initial-password = "ab"' }));
    expect(msg).toBe('config file c.toml: key "initial-password": not a valid value');
    expect(await fails(run([], { SHALE_INITIAL_PASSWORD: 'xy' }))).not.toContain('xy');
  });

  it('rejects unknown keys (with a hint), nested tables, duplicate spellings and a nested config key', async () => {
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'prot = 4000' }))).toMatch(
      /^config file c\.toml: unknown key "prot" \(did you mean "port"\?\); known keys: host, port, data-dir, store, log-level, initial-password, require-secure-transport, progress$/,
    );
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': '[serve]\nport = 1' }))).toBe(
      'config file c.toml: key "serve": expected a string, number or boolean, not a table or date',
    );
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'data-dir = "a"\ndata_dir = "b"' }))).toBe(
      'config file c.toml: keys "data-dir" and "data_dir" name the same option',
    );
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'config = "x.toml"' }))).toBe(
      'config file c.toml: key "config": a config file cannot name another one',
    );
  });

  it('reports TOML and JSON syntax errors with the file name', async () => {
    expect(await fails(run(['--config', 'c.toml'], {}, { 'c.toml': 'port = \n' }))).toMatch(/^config file c\.toml: not valid TOML: .*\(line 1, column \d+\)$/);
    expect(await fails(run(['--config', 'c.json'], {}, { 'c.json': '{port: 1}' }))).toMatch(/^config file c\.json: not valid JSON: /);
    expect(await fails(run(['--config', 'c.json'], {}, { 'c.json': '[1]' }))).toBe('config file c.json: expected a table of option = value');
  });
});

describe('config files on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shale-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads TOML and JSON, and notices a password file others may read', () => {
    const toml = join(dir, 'shale.toml');
    writeFileSync(toml, '# ShaleDB\nport = 4000\ndata_dir = "./d"\nworkers = 2\ninitial-password = "pw"\n');
    chmodSync(toml, 0o600);
    const t = readConfigFile(toml);
    expect(t.entries).toEqual([
      { key: 'port', name: 'port', value: 4000 },
      { key: 'data_dir', name: 'data-dir', value: './d' },
      { key: 'workers', name: 'workers', value: 2 },
      { key: 'initial-password', name: 'initial-password', value: 'pw' },
    ]);
    expect(t.readableByOthers).toBe(false);
    const json = join(dir, 'shale.json');
    writeFileSync(json, '{"port": 4001, "log-level": "warn"}');
    chmodSync(json, 0o644);
    expect(readConfigFile(json)).toEqual({
      path: json,
      entries: [
        { key: 'port', name: 'port', value: 4001 },
        { key: 'log-level', name: 'log-level', value: 'warn' },
      ],
      readableByOthers: true,
    });
    expect(() => readConfigFile(join(dir, 'missing.toml'))).toThrow(/^config file .*missing\.toml: ENOENT/);
  });

  it('the docs example config, commented-out keys included, is valid for the real serve command', () => {
    const serve = buildProgram().commands.find((c) => c.name() === 'serve');
    if (!serve) throw new Error('no serve command');
    const path = join(__dirname, '../../docs/shale.example.toml');
    const uncommented = readFileSync(path, 'utf8').replace(/^# ([a-z][a-z0-9_-]* = .*)$/gm, '$1');
    const entries = parseConfigText(uncommented, 'toml', path);
    expect(entries.length).toBeGreaterThan(10);
    serve.setOptionValueWithSource('config', path, 'cli');
    const report = applyConfigLayers(serve, { env: {}, readFile: () => ({ path, entries, readableByOthers: false }) });
    expect(report.fromFile).toEqual(entries.map((e) => e.name));
    expect(serve.opts()).toMatchObject({ port: 4000, dataDir: './shale-data', workers: 1, logLevel: 'info', requireSecureTransport: true });
  });
});

describe('the real serve command', () => {
  const serve = buildProgram().commands.find((c) => c.name() === 'serve');
  if (!serve) throw new Error('no serve command');

  it('has a setting and an environment variable for every long option', () => {
    const settings = settingsOf(serve);
    for (const o of serve.options) {
      if (o.long === undefined) continue;
      const name = o.long.replace(/^--(no-)?/, '');
      expect(settings.has(name), o.long).toBe(true);
    }
    for (const name of ['config', 'host', 'port', 'data-dir', 'store', 'workers', 'log-level']) expect(settings.has(name), name).toBe(true);
  });

  it('logs the file and the option names, never the values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shale-config-log-'));
    try {
      const path = join(dir, 'c.toml');
      writeFileSync(path, 'initial-password = "hunter22"\nport = 0\n');
      chmodSync(path, 0o644);
      const cmd = new Command('serve')
        .exitOverride()
        .addOption(configOption())
        .option('--port <n>', 'port', parsePort, 4000)
        .option('--initial-password <pw>', 'password');
      cmd.hook('preAction', applyConfigHook).action(() => undefined);
      await cmd.parseAsync(['--config', path], { from: 'user' });
      let logged = '';
      const sink = new Writable({
        write(chunk: Buffer, _enc, cb) {
          logged += chunk.toString();
          cb();
        },
      });
      logConfigReport(cmd, pino({ level: 'info' }, sink));
      expect(logged).toContain(`"configFile":"${path}"`);
      expect(logged).toContain('"fromFile":["initial-password","port"]');
      expect(logged).toContain('chmod 600');
      expect(logged).not.toContain('hunter22');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
