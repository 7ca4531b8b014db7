/**
 * One `shale check bank` run: set up the tables, run the clients for the duration, read the final
 * state with a fresh connection and verify the invariants.
 */
import { runClient } from './bank-client.js';
import { connectWithRetry, type ConnectSettings, type SqlConnection } from './bank-connect.js';
import { classifyError } from './bank-errors.js';
import { Ledger } from './bank-ledger.js';
import { describeTarget, type BankOptions } from './bank-options.js';
import { startProgress, type ProgressSink } from './bank-progress.js';
import { seededRandom } from './bank-random.js';
import type { BankCounts, BankResult } from './bank-report.js';
import { setupBank } from './bank-schema.js';
import { readBankState, type BankState } from './bank-state.js';
import { verifyBank } from './bank-verify.js';

/** How long set-up keeps trying to reach the server. */
const SETUP_CONNECT_MS = 5_000;
/** How long verification keeps trying (the server may be restarting). */
const VERIFY_WINDOW_MS = 60_000;

function errorMessage(err: unknown): string {
  const info = classifyError(err);
  return info.errno !== undefined ? `${info.errno}: ${info.message}` : `${info.code}: ${info.message}`;
}

function countsOf(ledger: Ledger): BankCounts {
  return {
    attempted: ledger.attempts(),
    acknowledged: ledger.acknowledged.size,
    rejected: ledger.rejected.size,
    skipped: ledger.skipped.size,
    unknown: ledger.unknown.size,
    unknownBeforeCommit: ledger.unknownBeforeCommit.size,
    reconnects: ledger.reconnects,
    anomalies: ledger.anomalyCount,
  };
}

/** Connects for set-up and loads the tables; returns an error message on failure. */
async function setUp(o: BankOptions, timeoutMs: number): Promise<string | undefined> {
  let last = 'no attempt';
  const conn = await connectWithRetry(
    { target: o.target, timeoutMs },
    { deadline: Date.now() + SETUP_CONNECT_MS, giveUpOnServerError: true, onError: (code, message) => (last = `${code}: ${message}`) },
  );
  if (conn === undefined) return `cannot connect to ${describeTarget(o.target)}: ${last}`;
  try {
    await setupBank(conn, o.target.database, o.accounts, o.initial);
    return undefined;
  } catch (err) {
    return `set-up failed: ${errorMessage(err)}`;
  } finally {
    conn.close();
  }
}

/** Reads the final state, reconnecting while the server is unreachable; a string is the last error. */
async function readFinal(settings: ConnectSettings): Promise<BankState | string> {
  const deadline = Date.now() + VERIFY_WINDOW_MS;
  let last = 'no attempt';
  for (;;) {
    const conn: SqlConnection | undefined = await connectWithRetry(settings, {
      deadline,
      onError: (code, message) => (last = `${code}: ${message}`),
    });
    if (conn === undefined) return `cannot connect to verify: ${last}`;
    try {
      return await readBankState(conn);
    } catch (err) {
      const info = classifyError(err);
      last = errorMessage(err);
      // A server error (missing table, bad SQL) will not go away by retrying.
      if (info.server || info.errno !== undefined || Date.now() >= deadline) return `cannot read the final state: ${last}`;
    } finally {
      conn.close();
    }
  }
}

export async function runBank(o: BankOptions, progress: ProgressSink): Promise<BankResult> {
  const timeoutMs = Math.round(o.timeoutS * 1000);
  const setupError = await setUp(o, timeoutMs);
  if (setupError !== undefined) return { status: 'ERROR', options: o, error: setupError };

  const settings: ConnectSettings = { target: o.target, database: o.target.database, timeoutMs };
  const ledger = new Ledger();
  const startedAt = Date.now();
  const deadline = startedAt + o.durationS * 1000;
  const stopProgress = startProgress(ledger, progress, startedAt);
  try {
    await Promise.all(
      Array.from({ length: o.clients }, (_, index) =>
        runClient({
          index,
          accounts: o.accounts,
          initial: o.initial,
          rng: seededRandom(o.seed + index),
          ledger,
          deadline,
          connect: () => connectWithRetry(settings, { deadline, onError: (code) => ledger.connectErrors.add(code) }),
        }),
      ),
    );
  } finally {
    stopProgress();
  }
  const elapsedS = (Date.now() - startedAt) / 1000;
  const base = {
    options: o,
    counts: countsOf(ledger),
    errors: ledger.errors.toJSON(),
    connectErrors: ledger.connectErrors.toJSON(),
    elapsedS,
  };

  const state = await readFinal(settings);
  if (typeof state === 'string') return { ...base, status: 'ERROR', error: state };
  const verification = verifyBank({ accounts: o.accounts, initial: o.initial, ledger, ...state });
  if (!verification.passed) return { ...base, status: 'FAIL', verification };
  if (ledger.acknowledged.size === 0) {
    return { ...base, status: 'ERROR', verification, error: 'no transfer was acknowledged, so nothing was checked' };
  }
  return { ...base, status: 'PASS', verification };
}
