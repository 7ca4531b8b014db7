/**
 * `--config <file>` for `shale serve`: the option, its help text, the preAction hook that applies
 * the environment and config-file layers (config-layers.ts) before the action reads its flags, and
 * the start-up log line saying what came from where (option names only, never values).
 */
import { Option, type Command } from 'commander';
import type { Logger } from 'pino';
import { ConfigError } from './config-file.js';
import { applyConfigLayers, type ConfigReport } from './config-layers.js';

/** The --config option (SHALE_CONFIG through the environment layer). */
export function configOption(): Option {
  return new Option('--config <file>', 'read settings from a TOML file (or JSON if it ends in .json); see "Configuration" below');
}

export const CONFIG_HELP = `
Configuration (highest precedence first):
  1. command-line flags
  2. environment variables SHALE_<OPTION>: the long option name in upper snake case, e.g.
     SHALE_PORT=4001, SHALE_DATA_DIR=/var/lib/shale, SHALE_LOG_LEVEL=debug (switches take
     true/false, 1/0, yes/no, on/off; an empty variable counts as unset). SHALE_ROOT_PASSWORD
     still sets --initial-password.
  3. the config file named by --config or SHALE_CONFIG: every option above as a key, in
     kebab-case or snake_case, e.g.
       port = 4000
       data-dir = "./shale-data"
       log-level = "info"
       workers = 2
     An unknown key is an error. Relative paths are relative to the current directory.
  4. the defaults shown above
Values from the environment and the file are checked like flags. The log line "settings"
at start-up names the file and which options came from it or the environment (values are
never logged).`;

const reports = new WeakMap<Command, ConfigReport>();

/**
 * preAction hook: applies the layers to `cmd`. A bad value or unknown key is a usage error
 * (commander prints it and exits with 1, like a bad flag).
 */
export function applyConfigHook(cmd: Command): void {
  try {
    reports.set(cmd, applyConfigLayers(cmd, { env: process.env }));
  } catch (err) {
    if (err instanceof ConfigError) cmd.error(`error: ${err.message}`, { exitCode: 1, code: 'shale.config' });
    throw err;
  }
}

/** Logs what the layers of `cmd` contributed (nothing when flags and defaults did everything). */
export function logConfigReport(cmd: Command, logger: Logger): void {
  const r = reports.get(cmd);
  if (r === undefined) return;
  if (r.file !== undefined || r.fromEnv.length > 0) {
    logger.info(
      {
        event: 'settings',
        ...(r.file !== undefined ? { configFile: r.file, fromFile: r.fromFile } : {}),
        ...(r.fromEnv.length > 0 ? { fromEnv: r.fromEnv } : {}),
        ...(r.overridden.length > 0 ? { overriddenInFile: r.overridden } : {}),
      },
      r.file !== undefined ? `settings from ${r.file}` : 'settings from the environment',
    );
  }
  if (r.exposedSecrets.length > 0) {
    logger.warn(
      { event: 'config-file-readable', configFile: r.file, keys: r.exposedSecrets },
      'the config file holds a password and other users may read it (chmod 600)',
    );
  }
}
