/**
 * Layered settings for a commander command, for every option it has (including ones added later):
 *
 *   command-line flag  >  environment variable SHALE_<OPTION>  >  config file  >  built-in default
 *
 * Commander has already parsed the flags; this fills the options still at their default from the
 * environment, then from the config file named by the `config` option (itself a flag or
 * SHALE_CONFIG). Values go through the option's own parser and are stored with commander's value
 * source ('env' or 'config'), so `getOptionValueSource()` tells where each value came from.
 */
import type { Command, Option } from 'commander';
import { ConfigError, readConfigFile, type ConfigFile } from './config-file.js';
import { configOptionValue, envOptionValue, isSecretOption, takesValue } from './config-values.js';

/** Environment variables read besides SHALE_<OPTION>, for names that predate the rule. */
export const ENV_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'initial-password': ['SHALE_ROOT_PASSWORD'],
};

/** What the layers contributed (option names only, never values). */
export interface ConfigReport {
  /** The config file read, if any. */
  readonly file?: string;
  /** Options set from environment variables ("port ← SHALE_PORT"). */
  readonly fromEnv: readonly string[];
  /** Options set from the config file. */
  readonly fromFile: readonly string[];
  /** Keys of the file that a flag or environment variable overrode. */
  readonly overridden: readonly string[];
  /** Secret options found in a file other users may read. */
  readonly exposedSecrets: readonly string[];
}

export interface LayerSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile?: (path: string) => ConfigFile;
  /** The option naming the config file (default `config`). */
  readonly configOption?: string;
}

/** One settable option: its kebab-case name and the flag that defines its value. */
interface Setting {
  readonly name: string;
  readonly attribute: string;
  readonly option: Option;
}

/** The option name used in config files and environment variables: `--data-dir` → `data-dir`. */
function settingName(o: Option): string | undefined {
  if (o.long === undefined) return undefined;
  const name = o.long.replace(/^--/, '');
  return o.negate ? name.replace(/^no-/, '') : name;
}

/** `data-dir` → `SHALE_DATA_DIR`. */
export function envName(name: string): string {
  return `SHALE_${name.replace(/-/g, '_').toUpperCase()}`;
}

/** The command's settings by name; a value option wins over its `--no-` switch. */
export function settingsOf(cmd: Command): Map<string, Setting> {
  const out = new Map<string, Setting>();
  for (const option of cmd.options) {
    const name = settingName(option);
    if (name === undefined) continue;
    const known = out.get(name);
    if (known !== undefined && (takesValue(known.option) || !takesValue(option))) continue;
    out.set(name, { name, attribute: option.attributeName(), option });
  }
  return out;
}

/** May a lower layer still set this option? (Flags and earlier layers win.) */
function open(cmd: Command, attribute: string): boolean {
  const source = cmd.getOptionValueSource(attribute);
  return source === undefined || source === 'default' || source === 'implied';
}

function unknownKey(path: string, key: string, names: readonly string[]): ConfigError {
  const near = names.filter((n) => distance(n, key.replace(/_/g, '-')) <= 2);
  const hint = near.length > 0 ? ` (did you mean ${near.map((n) => `"${n}"`).join(' or ')}?)` : '';
  return new ConfigError(`config file ${path}: unknown key "${key}"${hint}; known keys: ${names.join(', ')}`);
}

/** Levenshtein distance, for typo hints. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** Applies the environment and config-file layers to `cmd`; throws ConfigError on a bad value or key. */
export function applyConfigLayers(cmd: Command, sources: LayerSources): ConfigReport {
  const settings = settingsOf(cmd);
  const configName = sources.configOption ?? 'config';
  const fromEnv: string[] = [];
  for (const s of settings.values()) {
    if (!open(cmd, s.attribute)) continue;
    for (const variable of [envName(s.name), ...(ENV_ALIASES[s.name] ?? [])]) {
      const text = sources.env[variable];
      if (text === undefined || text === '') continue;
      const where = `environment variable ${variable}`;
      const value = envOptionValue(s.option, text, cmd.getOptionValue(s.attribute), where, isSecretOption(s.name));
      cmd.setOptionValueWithSource(s.attribute, value, 'env');
      fromEnv.push(`${s.name} ← ${variable}`);
      break;
    }
  }
  const configSetting = settings.get(configName);
  const path: unknown = configSetting === undefined ? undefined : cmd.getOptionValue(configSetting.attribute);
  if (typeof path !== 'string' || path === '') return { fromEnv, fromFile: [], overridden: [], exposedSecrets: [] };

  const file = (sources.readFile ?? readConfigFile)(path);
  const names = [...settings.keys()].filter((n) => n !== configName);
  const fromFile: string[] = [];
  const overridden: string[] = [];
  const secrets: string[] = [];
  for (const entry of file.entries) {
    const s = settings.get(entry.name);
    if (s === undefined) throw unknownKey(path, entry.key, names);
    if (entry.name === configName) throw new ConfigError(`config file ${path}: key "${entry.key}": a config file cannot name another one`);
    const secret = isSecretOption(s.name);
    // Validated even when overridden, so a typo in the file never waits for the flag to go away.
    const value = configOptionValue(s.option, entry.value, cmd.getOptionValue(s.attribute), `config file ${path}: key "${entry.key}"`, secret);
    if (secret) secrets.push(s.name);
    if (!open(cmd, s.attribute)) {
      overridden.push(s.name);
      continue;
    }
    cmd.setOptionValueWithSource(s.attribute, value, 'config');
    fromFile.push(s.name);
  }
  return { file: path, fromEnv, fromFile, overridden, exposedSecrets: file.readableByOthers ? secrets : [] };
}
