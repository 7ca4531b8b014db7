/**
 * Turning an environment variable's text or a config file's value into an option's value with the
 * option's own commander parser (port ranges, choices, ...), so every layer is validated like a
 * flag. Error messages name where the value came from, never a secret's value.
 */
import type { Option } from 'commander';
import { ConfigError, type ConfigValue } from './config-file.js';

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** Options whose values never appear in messages or logs. */
export function isSecretOption(name: string): boolean {
  return /password|secret|token|credential/i.test(name);
}

/** True when the option takes a value (`<x>` or `[x]`); false for a switch (`--x`, `--no-x`). */
export function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

function parseText(o: Option, text: string, previous: unknown, where: string, secret: boolean): unknown {
  if (o.parseArg === undefined) return o.variadic ? [...(Array.isArray(previous) ? previous : []), text] : text;
  try {
    return o.parseArg(text, previous);
  } catch (err) {
    throw new ConfigError(`${where}: ${secret ? 'not a valid value' : err instanceof Error ? err.message : String(err)}`);
  }
}

function boolWord(text: string, where: string): boolean {
  const t = text.trim().toLowerCase();
  if (TRUE_WORDS.includes(t)) return true;
  if (FALSE_WORDS.includes(t)) return false;
  throw new ConfigError(`${where}: expected true or false (also 1/0, yes/no, on/off)`);
}

/**
 * The value of option `o` from an environment variable. A switch takes true/false words (for
 * `--no-x` the value is x's, so SHALE_X=false turns x off).
 */
export function envOptionValue(o: Option, text: string, previous: unknown, where: string, secret: boolean): unknown {
  if (!takesValue(o)) return boolWord(text, where);
  return parseText(o, text, previous, where, secret);
}

type Scalar = string | number | bigint | boolean;

function isList(v: ConfigValue): v is readonly Scalar[] {
  return Array.isArray(v);
}

function scalarText(v: Scalar, where: string): string {
  if (typeof v === 'boolean') throw new ConfigError(`${where}: expected a value, not ${v}`);
  return String(v);
}

/**
 * The value of option `o` from a config file: a switch takes a boolean, a value option a string or
 * number (an optional-value option also true/false), a repeatable option a list.
 */
export function configOptionValue(o: Option, value: ConfigValue, previous: unknown, where: string, secret: boolean): unknown {
  if (!takesValue(o)) {
    if (typeof value !== 'boolean') throw new ConfigError(`${where}: expected true or false`);
    return value;
  }
  if (typeof value === 'boolean' && o.optional) return value ? (o.presetArg ?? true) : false;
  if (isList(value)) {
    if (!o.variadic) throw new ConfigError(`${where}: expected one value, not a list`);
    let acc: unknown = undefined;
    for (const item of value) acc = parseText(o, scalarText(item, where), acc, where, secret);
    return acc;
  }
  return parseText(o, scalarText(value, where), o.variadic ? undefined : previous, where, secret);
}
