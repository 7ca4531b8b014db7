/**
 * Crash harness (issue #6, durability): SIGKILLs a ShaleDB server at random moments, including
 * part-way through a CREATE INDEX backfill, restarts it on the same data and verifies after every
 * restart that each acknowledged commit is there, no transaction is partially visible, counters
 * match the committed increments and ADMIN CHECK TABLE passes (scripts/crash-harness/).
 *
 *   npm run build
 *   npx tsx scripts/crash-harness.ts --cycles 50 --clients 8 [--store lmdb|etcd|etcd://host:port/prefix]
 *       [--big-rows 100000] [--ddl-every 3] [--seed N] [--reboot] [--json]
 *
 * `--store etcd` starts a private one-member etcd (Debian's etcd-server) for the run; only the
 * SQL node is killed then. `--reboot` (embedded store) restarts each time as after a reboot of the
 * machine (a new SHALE_BOOT_ID), so the server restores its last checkpoint and replays the redo
 * log. Prints one line per cycle and a summary; exits 1 on any violation.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startEtcd, type EtcdCluster } from '../test/helpers/etcd.js';
import { runCrashHarness, summary, type HarnessOptions, type HarnessReport } from './crash-harness/harness.js';

export { runCrashHarness, summary, type HarnessOptions, type HarnessReport } from './crash-harness/harness.js';

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got '${text}'`);
  return n;
}

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      cycles: { type: 'string' },
      clients: { type: 'string' },
      store: { type: 'string' },
      'big-rows': { type: 'string' },
      'ddl-every': { type: 'string' },
      seed: { type: 'string' },
      reboot: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const store = values.store ?? 'lmdb';
  let etcd: EtcdCluster | undefined;
  if (store === 'etcd') etcd = await startEtcd(1);
  try {
    const opts: HarnessOptions = {
      cycles: positive('cycles', values.cycles, 50),
      clients: positive('clients', values.clients, 8),
      store: etcd !== undefined ? etcd.url() : store,
      bigRows: positive('big-rows', values['big-rows'], 100_000),
      runMs: [300, 3000],
      ddlEvery: positive('ddl-every', values['ddl-every'], 3),
      seed: positive('seed', values.seed, Math.floor(Math.random() * 2 ** 31)),
      log: (line) => {
        if (values.json !== true) console.log(line);
      },
      reboot: values.reboot === true,
    };
    if (opts.store !== 'lmdb' && !opts.store.startsWith('etcd://')) throw new Error(`--store must be lmdb, etcd or an etcd:// URL, got '${store}'`);
    const report: HarnessReport = await runCrashHarness(opts);
    if (values.json === true) console.log(JSON.stringify(report));
    else console.log(summary(report, opts));
    return report.violations === 0 ? 0 : 1;
  } finally {
    await etcd?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.stack ?? err.message : String(err));
      process.exit(2);
    },
  );
}
