import type { Command, CommanderError } from 'commander';
import { bankOptions, intInRange, MAX_CLIENTS, parseBankUrl, seconds, type BankFlags } from './bank-options.js';
import { exitCodeOf, formatReport, resultJson, type BankResult } from './bank-report.js';
import { runBank } from './bank-run.js';

/** Usage errors of `shale check ...` exit with 2 (1 means the check ran and failed). */
function usageExit(err: CommanderError): never {
  process.exit(err.exitCode === 0 ? 0 : 2);
}

function print(result: BankResult, json: boolean): void {
  process.stdout.write(json ? JSON.stringify(resultJson(result), null, 2) + '\n' : formatReport(result));
}

/** Adds `shale check ...` (consistency checkers usable against any deployment). */
export function registerCheckCommands(program: Command): void {
  const check = program
    .command('check')
    .description('consistency checkers against a running deployment')
    .exitOverride(usageExit);

  check
    .command('bank')
    .description(
      'bank-transfer check: concurrent clients move money between accounts in transactions, then the ' +
        'final state is verified (money conserved, every acknowledged transfer present exactly once, ' +
        'no rejected transfer applied, balances match the transfer log)',
    )
    .requiredOption('--url <url>', 'target as mysql://user:password@host:port/database', parseBankUrl)
    .option('--accounts <n>', 'number of accounts', intInRange(2, 1_000_000), 100)
    .option('--clients <n>', 'concurrent clients, one connection each', intInRange(1, MAX_CLIENTS), 16)
    .option('--duration <s>', 'seconds of transfers', seconds(0.1, 86_400), 60)
    .option('--initial <n>', 'initial balance of every account', intInRange(1, 1_000_000_000_000), 1000)
    .option('--seed <n>', 'seed of the random choices (default: random; printed in the report)', intInRange(0, 2 ** 31 - 1))
    .option('--timeout <s>', 'per-statement timeout; a statement that takes longer counts as unknown', seconds(1, 3600), 10)
    .option('--json', 'print a JSON result object instead of the report')
    .addHelpText(
      'after',
      '\nThe database is created if missing; its tables bank_accounts and bank_transfers are dropped and\n' +
        'recreated. Connection errors during the run are counted and the clients reconnect, so the check\n' +
        'can run across server restarts or failovers.\n\n' +
        'Exit codes: 0 PASS, 1 FAIL (an invariant does not hold), 2 usage or connection error (no verdict).\n\n' +
        'Example:\n  shale check bank --url mysql://root:@127.0.0.1:4000/bankcheck --clients 16 --duration 60',
    )
    .exitOverride(usageExit)
    .action(async (flags: BankFlags) => {
      const options = bankOptions(flags);
      let result: BankResult;
      try {
        result = await runBank(options, process.stderr);
      } catch (err) {
        result = { status: 'ERROR', options, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      }
      print(result, options.json);
      process.exitCode = exitCodeOf(result.status);
    });
}
