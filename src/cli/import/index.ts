import { Option, type Command, type CommanderError } from 'commander';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_USER, importOptions, parseImportUrl, parsePortNumber, type ImportFlags } from './import-options.js';
import { formatImportReport, importExitCode } from './import-report.js';
import { runImport } from './import-run.js';

/** Usage errors of `shale import` exit with 2 (1 means statements failed). */
function usageExit(err: CommanderError): never {
  process.exit(err.exitCode === 0 ? 0 : 2);
}

const HELP_AFTER = `
The file is read as a stream and split into statements like the mysql client does (quotes,
comments, /*!NNNNN … */ conditional comments, DELIMITER lines), then executed in order over one
connection. Statements are sent byte for byte, so the dump's own SET NAMES decides the character
set. Progress goes to stderr: a bar on a terminal, a line every 5 seconds otherwise.

On a failed statement the import stops and prints the statement number, its line, the MySQL
error and the start of the statement; --continue-on-error runs on and reports every failure.
Comments and blank lines between statements are not sent.

Exit codes: 0 every statement succeeded, 1 statements failed, 2 usage, file or connection error.

Examples:
  mysqldump --databases shop > shop.sql        # or mariadb-dump; --hex-blob for binary columns
  shale import shop.sql --url mysql://root:@127.0.0.1:4000
  shale import tables.sql --database shop --continue-on-error
  MYSQL_PWD=secret shale import shop.sql --host 10.0.0.5 --user app`;

/** Adds `shale import <dump.sql>`. */
export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description('load a SQL dump (mysqldump / mariadb-dump output) into a running server')
    .argument('<file>', 'the dump file (.sql)')
    .addOption(
      new Option('--url <url>', 'target as mysql://user:password@host:port[/database] (instead of --host/--port/--user/--database)')
        .argParser(parseImportUrl)
        .conflicts(['host', 'port', 'user', 'database']),
    )
    .option('--host <host>', 'server address', DEFAULT_HOST)
    .option('--port <n>', 'server port', parsePortNumber, DEFAULT_PORT)
    .option('--user <name>', 'user name', DEFAULT_USER)
    .addOption(new Option('--password <pw>', 'password, when the URL has none (default: empty)').env('MYSQL_PWD'))
    .option('--database <db>', 'default database, for a dump without CREATE DATABASE/USE (it must exist)')
    .option('--continue-on-error', 'run the remaining statements after a failed one and report all failures')
    .option('--no-progress', 'no progress bar or progress lines')
    .addHelpText('after', HELP_AFTER)
    .exitOverride(usageExit)
    .action(async (file: string, flags: ImportFlags) => {
      const result = await runImport(importOptions(file, flags));
      process.stdout.write(formatImportReport(result));
      process.exitCode = importExitCode(result.status);
    });
}
