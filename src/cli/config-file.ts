/**
 * Reading a configuration file: TOML (any name but *.json) or JSON, one flat table whose keys are
 * option names in kebab-case or snake_case (`data-dir` or `data_dir`). Nested tables, arrays of
 * tables and dates are rejected; the caller checks the keys against the command's options.
 */
import { readFileSync, statSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';

/** A bad configuration value or file; the message names the file or variable and the key. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A value a flat config file may hold for an option. */
export type ConfigValue = string | number | bigint | boolean | readonly (string | number | bigint | boolean)[];

/** One entry of the file, with the key as written and normalised to kebab-case. */
export interface ConfigEntry {
  readonly key: string;
  readonly name: string;
  readonly value: ConfigValue;
}

export interface ConfigFile {
  readonly path: string;
  readonly entries: readonly ConfigEntry[];
  /** Other users may read the file (matters when it holds a password). */
  readonly readableByOthers: boolean;
}

function isScalar(v: unknown): v is string | number | bigint | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean';
}

function toValue(v: unknown): ConfigValue | undefined {
  if (isScalar(v)) return v;
  if (Array.isArray(v) && v.every(isScalar)) return v;
  return undefined;
}

/** Parses the text of a config file (`format` from the file name). */
export function parseConfigText(text: string, format: 'toml' | 'json', path: string): ConfigEntry[] {
  let doc: unknown;
  try {
    doc = format === 'json' ? JSON.parse(text) : parseToml(text);
  } catch (err) {
    const msg = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    const at = err instanceof TomlError ? ` (line ${err.line}, column ${err.column})` : '';
    throw new ConfigError(`config file ${path}: not valid ${format.toUpperCase()}: ${msg}${at}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ConfigError(`config file ${path}: expected a table of option = value`);
  }
  const seen = new Map<string, string>();
  const entries: ConfigEntry[] = [];
  for (const [key, raw] of Object.entries(doc)) {
    const name = key.replace(/_/g, '-');
    const earlier = seen.get(name);
    if (earlier !== undefined) throw new ConfigError(`config file ${path}: keys "${earlier}" and "${key}" name the same option`);
    seen.set(name, key);
    const value = toValue(raw);
    if (value === undefined) {
      throw new ConfigError(`config file ${path}: key "${key}": expected a string, number or boolean, not a table or date`);
    }
    entries.push({ key, name, value });
  }
  return entries;
}

/** Reads and parses the file at `path`. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  let mode: number;
  try {
    text = readFileSync(path, 'utf8');
    mode = statSync(path).mode;
  } catch (err) {
    throw new ConfigError(`config file ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const format = path.toLowerCase().endsWith('.json') ? 'json' : 'toml';
  return { path, entries: parseConfigText(text, format, path), readableByOthers: process.platform !== 'win32' && (mode & 0o044) !== 0 };
}
